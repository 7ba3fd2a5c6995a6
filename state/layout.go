package state

import "strconv"

// The state dir's layout, every name in one place (ARCHITECTURE.md, "State layout" lists the
// same tree with what each file holds). The packages that own a file (notify, sessions, hook,
// checkpoint, snapshot, gitcache, compactflow, doctor, install) name it through these
// constants, never a literal; config, which does not import state, spells its cache's name
// itself, and layout_test.go holds the two equal.
//
//	<state>/zoneline.log, zoneline.log.1       LogName, LogRotatedName
//	<state>/gc.stamp                            GCStampName
//	<state>/config-cache.toml                   ConfigCacheName
//	<state>/snapshots/                          SnapshotsDirName
//	<state>/git/<key>.json, <key>.refresh       GitDirName (gitcache)
//	<state>/sessions/<session-id>/              SessionsDirName
//	    session.json                            SessionFileName
//	    checkpoint.md                           CheckpointName
//	    compactions.json, .compactions.lock     CompactionsName, CompactionsLockName
//	    compactions.problem                     CompactionsProblemFile
//	    prompt.json                             PromptName
//	    inflight-stop.json                      InflightStopName
//	    resume-pending.json, resume.json        ResumePendingName, ResumeName
//	    resume-notified-<n>                     ResumeNotifiedPrefix + n
//	    marker-<epoch>-<tier>.json              MarkerName
//	    epoch-<n>.json                          EpochName
//	    nudge-pending.json                      NudgePendingName
//	    delivered-<epoch>-<tier>                DeliveredName
//	    watch-<epoch>.json                      WatchClaimFmt (compactflow's watch)
//	    wrapped-last.txt                        WrapCacheName (statusline -wrap: the refresher's result)
//	    wrap-job                                WrapJobName (the newest render's run asked of the refresher)
//	    .wrap.lock                              WrapLockName (held by the one running refresher)
//	.<name>.tmp-<random>                        an atomic write's temp file (TempPrefix, IsTemp)
const (
	LogName          = "zoneline.log"
	LogRotatedName   = LogName + ".1"
	GCStampName      = "gc.stamp"
	ConfigCacheName  = "config-cache.toml" // config.CacheFile (config does not import state)
	SnapshotsDirName = "snapshots"
	GitDirName       = "git"
	SessionsDirName  = "sessions"

	// In a session's folder.
	SessionFileName      = "session.json"
	CheckpointName       = "checkpoint.md"
	CompactionsName      = "compactions.json"
	CompactionsLockName  = ".compactions.lock"
	PromptName           = "prompt.json"
	InflightStopName     = "inflight-stop.json"
	ResumePendingName    = "resume-pending.json"
	ResumeName           = "resume.json"
	ResumeNotifiedPrefix = "resume-notified-"
	NudgePendingName     = "nudge-pending.json"
	MarkerPrefix         = "marker-" // MarkerPrefix + "<epoch>-<tier>" + MarkerSuffix
	MarkerSuffix         = ".json"
	EpochPrefix          = "epoch-" // EpochPrefix + "<n>" + EpochSuffix
	EpochSuffix          = ".json"
	DeliveredPrefix      = "delivered-"    // DeliveredPrefix + "<epoch>-<tier>"
	WatchClaimFmt        = "watch-%d.json" // with the warning epoch
	WrapCacheName        = "wrapped-last.txt"
	WrapJobName          = "wrap-job"
	WrapLockName         = ".wrap.lock"

	tempInfix = ".tmp-"
)

// MarkerName is the file name of a warning tier's marker in an epoch.
func MarkerName(epoch int, tier string) string {
	return MarkerPrefix + strconv.Itoa(epoch) + "-" + tier + MarkerSuffix
}

// EpochName is the file name that opens warning epoch n.
func EpochName(n int) string { return EpochPrefix + strconv.Itoa(n) + EpochSuffix }

// DeliveredName is the file name that records a tier's nudge as delivered in an epoch.
func DeliveredName(epoch int, tier string) string {
	return DeliveredPrefix + strconv.Itoa(epoch) + "-" + tier
}

// TempPrefix is the name prefix of an atomic write's temp file for the file named base.
func TempPrefix(base string) string { return "." + base + tempInfix }

// CompactionsProblemFile is the file in a session's folder that says why the hooks could not
// record a compaction (its lock planted or busy); the statusline shows it as a ⚠ until an update
// succeeds.
const CompactionsProblemFile = "compactions.problem"
