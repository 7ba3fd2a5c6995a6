// Package redact replaces what looks like a credential in text with "[REDACTED: kind]".
// zoneline runs it over the snapshots it stores, the restore it puts back into the agent's
// context, every log line and every outside string placed into a template (safetext.Field).
// Three rules, each general:
//
//   - Provider tokens by their documented prefix and shape, wherever they stand: Anthropic
//     sk-ant-, OpenAI sk-/sk-proj- (mixed case), OpenRouter sk-or-, GitHub ghp_/gho_/ghu_/
//     ghs_/ghr_/github_pat_, GitLab glpat-/gldt-/glrt-/glptt-, Slack xox?-/xapp-, Stripe
//     sk_live_/rk_live_/whsec_ (and _test_), npm npm_, PyPI pypi-, Hugging Face hf_, SendGrid
//     SG.x.y, Twilio SK+32 hex, Shopify shpat_/shpca_/shppa_/shpss_, Databricks dapi, AWS
//     AKIA/ASIA, Google AIza/GOCSPX-/ya29., HashiCorp Vault hvs./hvb./hvr., DigitalOcean
//     dop_v1_/doo_v1_/dor_v1_, Doppler dp.pt. (and its kinds), Linear lin_api_, Atlassian
//     ATATT, Grafana glsa_/glc_, Pulumi pul-, Heroku HRKU-, Docker dckr_pat_, Postman PMAK-,
//     Sentry sntrys_/sntryu_, Supabase sbp_, Netlify nfp_, Tailscale tskey-, Groq gsk_,
//     Perplexity pplx-, xAI xai-, Replicate r8_, 1Password ops_eyJ, age AGE-SECRET-KEY-1,
//     JWTs, Slack webhook URLs and private key blocks. A prefix must be followed by the
//     token's body (its class and least length), so a word that merely starts like one stays.
//   - Values of secret-named keys: NAME=value, NAME: value, "name": "value", export NAME=…,
//     quoted or in escaped quotes, whose name holds (ASCII case folded, "_", "-" and "."
//     ignored) SECRET, TOKEN, PASSWORD, PASSWD, PASSPHRASE, PRIVATE, APIKEY, ACCESSKEY,
//     ACCOUNTKEY, CREDENTIAL, AUTHKEY, SESSIONKEY, SIGNINGKEY, ENCRYPTIONKEY or MASTERKEY, or
//     ends like a password (DB_PASS, MYSQL_PWD); Authorization headers, Bearer tokens, a URL's
//     user:password@ and Azure's sig=. The same names as options: --name VALUE, --name=VALUE,
//     Go's -name VALUE; and mysql's -p…, sshpass's and docker login's -p, redis-cli's -a,
//     curl's -u/--user user:password, aws_secret_access_key VALUE.
//   - What is kept, decided: a name that ends in what the value is about rather than the secret
//     itself (…_URL, _URI, _ENDPOINT, _HOST, _PATH, _FILE, _DIR, _NAME, _TYPE, _LENGTH, _COUNT,
//     _TOKENS, _SIZE, _LIMIT, _TTL, _EXPIRES…, _TIMEOUT, _ENABLED, _REQUIRED, _HEADER, _ENV,
//     _STDIN, _COMMAND, _HELPER, _PROMPT, _POLICY, tokenizer): TOKEN_URL=https://…,
//     PASSWORD_MIN_LENGTH=8, --token-file PATH and max_tokens=4096 stay, since the secret, if
//     any, is elsewhere (a URL's own password and a token in its query are still caught). A
//     value that is plainly no literal stays: a variable ($X, ${X}), a placeholder (<…>,
//     {…}), a mask (****), a boolean or null, and, except for a password (a PIN is one), a
//     number, a call (getToken()) or an attribute (config.api_key). A value under 8 bytes is
//     no secret's (a password's is taken at any length). A path is not exempt by its shape: a
//     secret-named variable whose value starts with "/" is redacted (base64 may start so).
//
// It is one pass over the bytes with no regexp (the log is on the statusline's hot path): a
// switch on the byte at each position picks the few shapes that can start there, and the
// prefix table is static (nothing built at init). Text with nothing to redact is returned as
// it is, without allocating. Hashes, UUIDs, commit ids and base64 that is not a key survive
// (redact_test.go and general_test.go hold both lists).
package redact

import "strings"

// Kinds, as they appear in "[REDACTED: kind]".
const (
	KindAnthropic  = "anthropic key"
	KindOpenAI     = "openai key"
	KindGitHub     = "github token"
	KindGitLab     = "gitlab token"
	KindAWS        = "aws access key"
	KindSlack      = "slack token"
	KindSlackHook  = "slack webhook"
	KindGoogle     = "google api key"
	KindNPM        = "npm token"
	KindStripe     = "stripe key"
	KindJWT        = "jwt"
	KindAuth       = "authorization"
	KindBearer     = "bearer token"
	KindPassword   = "password"
	KindSecret     = "secret"
	KindPrivateKey = "private key"

	KindOpenRouter   = "openrouter key"
	KindGrafana      = "grafana token"
	KindGroq         = "groq key"
	KindAtlassian    = "atlassian token"
	KindPyPI         = "pypi token"
	KindVault        = "vault token"
	KindHuggingFace  = "hugging face token"
	KindHeroku       = "heroku key"
	KindDigitalOcean = "digitalocean token"
	KindDocker       = "docker token"
	KindDatabricks   = "databricks token"
	KindShopify      = "shopify token"
	KindLinear       = "linear key"
	KindPulumi       = "pulumi token"
	KindPostman      = "postman key"
	KindSentry       = "sentry token"
	KindSupabase     = "supabase token"
	KindNetlify      = "netlify token"
	KindTailscale    = "tailscale key"
	KindPerplexity   = "perplexity key"
	KindXAI          = "xai key"
	KindReplicate    = "replicate token"
	KindOnePassword  = "1password token"
	KindSendGrid     = "sendgrid key"
	KindTwilio       = "twilio key"
	KindDoppler      = "doppler token"
)

// Marker starts every redaction.
const Marker = "[REDACTED: "

// String returns s with every credential replaced by "[REDACTED: kind]". When there is none it
// returns s itself.
func String(s string) string {
	var b []byte // nil until the first redaction
	last := 0    // s[last:] is not copied yet
	for i := 0; i < len(s); {
		if i > 0 && isAlnum(s[i]) && (isAlnum(s[i-1]) || s[i-1] == '_' || s[i-1] == '-') {
			i++ // inside a word: nothing starts here (the fast path of clean text)
			continue
		}
		start, end, kind := match(s, i)
		if kind == "" {
			i++
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(s)+16)
		}
		b = append(b, s[last:start]...)
		b = append(append(append(b, Marker...), kind...), ']')
		last, i = end, end
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// match reports whether a credential starts at (or, for a key's value, just after) s[i]: the
// range to replace and its kind ("" when none).
func match(s string, i int) (start, end int, kind string) {
	switch c := s[i]; c {
	case '-':
		if strings.HasPrefix(s[i:], "-----BEGIN ") {
			if n := privateKey(s[i:]); n > 0 {
				return i, i + n, KindPrivateKey
			}
			return 0, 0, ""
		}
		return option(s, i)
	case ':':
		if strings.HasPrefix(s[i:], "://") {
			return urlPassword(s, i+3)
		}
		return keyValue(s, i)
	case '=':
		return keyValue(s, i)
	case ' ':
		return spaceValue(s, i)
	default:
		if c == 'h' && strings.HasPrefix(s[i:], "hooks.slack.com/") { // inside a URL's host too
			return slackWebhook(s, i)
		}
		if !isAlnum(c) || !boundaryBefore(s, i) {
			return 0, 0, ""
		}
		if tokenStart[c] {
			if n, k := token(s[i:]); k != "" {
				return i, i + n, k
			}
		}
		if (c == 'B' || c == 'b') && hasPrefixFold(s[i:], "bearer ") {
			return bearer(s, i+len("bearer "))
		}
	}
	return 0, 0, ""
}

// body matches prefix bytes of s followed by at least min bytes of class (and, with mixed, a
// digit, an upper- and a lower-case letter among them) ending at a boundary.
func body(s string, prefix, min int, class func(byte) bool, mixed bool, kind string) (int, string) {
	n := prefix
	var digit, upper, lower bool
	for n < len(s) && class(s[n]) {
		c := s[n]
		digit, upper, lower = digit || isDigit(c), upper || isUpper(c), lower || isLower(c)
		n++
	}
	if n-prefix < min || (n < len(s) && isAlnum(s[n])) || (mixed && !(digit && upper && lower)) {
		return 0, ""
	}
	return n, kind
}

// privateKey matches a "-----BEGIN … PRIVATE KEY-----" block through its END line (or the rest
// of s when the block is cut).
func privateKey(s string) int {
	head := strings.Index(s[len("-----BEGIN "):], "-----")
	if head < 0 || head > 40 || !strings.Contains(s[len("-----BEGIN "):len("-----BEGIN ")+head], "PRIVATE KEY") {
		return 0
	}
	end := strings.Index(s, "-----END ")
	if end < 0 {
		return len(s)
	}
	tail := strings.Index(s[end+len("-----END "):], "-----")
	if tail < 0 {
		return len(s)
	}
	return end + len("-----END ") + tail + len("-----")
}

// urlPassword matches the password of scheme://user:password@host; i is just past "://".
func urlPassword(s string, i int) (int, int, string) {
	colon := -1
	for j := i; j < len(s) && j < i+256; j++ {
		switch c := s[j]; c {
		case ':':
			if colon < 0 {
				colon = j
			}
		case '@':
			if colon >= i && colon+1 < j && !strings.HasPrefix(s[colon+1:], Marker) { // redis://:password@ has no user
				return colon + 1, j, KindPassword
			}
			return 0, 0, ""
		case '/', '?', '#':
			// The end of the host (no user:password@ before it), unless a password holds it:
			// past a colon, and not a port (host:8443/path).
			if colon < 0 || allDigits(s[colon+1:j]) {
				return 0, 0, ""
			}
		case ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>':
			return 0, 0, ""
		}
	}
	return 0, 0, ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// spaceValue matches the value after the few key names that take it after a blank, as
// `aws configure set aws_secret_access_key VALUE` and the AWS credentials file's `key value`
// forms do; s[i] is the blank.
func spaceValue(s string, i int) (int, int, string) {
	if i == 0 || (s[i-1] != 'y' && s[i-1] != 'Y' && s[i-1] != 'n' && s[i-1] != 'N') {
		return 0, 0, ""
	}
	var key string
	for _, k := range [...]string{"aws_secret_access_key", "aws_session_token"} {
		if i >= len(k) && equalFold(s[i-len(k):i], k) && (i == len(k) || !isKeyByte(s[i-len(k)-1])) {
			key = k
		}
	}
	if key == "" {
		return 0, 0, ""
	}
	j := i + 1
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j < len(s) && (s[j] == '=' || s[j] == ':') {
		return 0, 0, "" // key = value: keyValue's
	}
	start, end := value(s, j, valueWord)
	if end-start < 8 || skipValue(s[start:end]) {
		return 0, 0, ""
	}
	return start, end, KindSecret
}

// slackWebhook matches the secret path of https://hooks.slack.com/services/T…/B…/… (and
// /workflows/…); s[i] starts "hooks.slack.com/".
func slackWebhook(s string, i int) (int, int, string) {
	j := i + len("hooks.slack.com/")
	kind, _, ok := strings.Cut(s[j:], "/")
	if !ok || kind != "services" && kind != "workflows" && kind != "triggers" {
		return 0, 0, ""
	}
	j += len(kind) + 1
	e := j
	for e < len(s) && (isB64URL(s[e]) || s[e] == '/') {
		e++
	}
	if e-j < 16 {
		return 0, 0, ""
	}
	return j, e, KindSlackHook
}

// keyValue matches the value after a sensitive key: s[i] is the '=' or ':' after it
// (password=…, "api_key": "…", Authorization: …).
func keyValue(s string, i int) (int, int, string) {
	k := i
	for k > 0 && i-k < 4 && s[k-1] == ' ' {
		k-- // key = value
	}
	if k > 0 && (s[k-1] == '"' || s[k-1] == '\'') {
		k-- // a quoted key
		if k > 0 && s[k-1] == '\\' {
			k-- // in escaped quotes: {\"password\":…}
		}
	}
	ks := k
	for ks > 0 && k-ks < 64 && isKeyByte(s[ks-1]) {
		ks--
	}
	key := s[ks:k]
	if key == "" || (ks > 0 && isAlnum(s[ks-1])) {
		return 0, 0, ""
	}
	kind, min := sensitive(key)
	if kind == "" {
		return 0, 0, ""
	}
	j := i + 1
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	mode := valueWord
	switch {
	case kind == KindAuth:
		mode = valueLine
	case s[i] == ':':
		mode = valueField
	}
	start, end := value(s, j, mode)
	if n, k := token(s[start:end]); k != "" && n == end-start {
		return start, end, k // a provider's key under any name: say which
	}
	if end-start < min || skipValue(s[start:end]) || kind != KindAuth && notLiteral(s[start:end], kind) {
		return 0, 0, ""
	}
	if kind == KindAuth {
		// "Bearer $TOKEN", "token ${GH_TOKEN}": a variable, not a credential
		w := end
		for w > start && s[w-1] != ' ' {
			w--
		}
		if skipValue(s[w:end]) {
			return 0, 0, ""
		}
	}
	return start, end, kind
}

// How far an unquoted value runs (value).
const (
	valueWord  = iota // to a blank or a delimiter of a query string or a shell word (key=value)
	valueField        // to a blank, a quote or the end of a JSON/YAML value (key: value)
	valueLine         // to the end of the line or a quote (a header: Authorization: Basic …)
)

// value returns the value starting at s[j]: to its closing quote when quoted, else as far as
// mode says.
func value(s string, j int, mode int) (int, int) {
	line := mode == valueLine
	if j+1 < len(s) && s[j] == '\\' && (s[j+1] == '"' || s[j+1] == '\'') {
		// a value in escaped quotes (JSON inside a shell string, a log's \"x\"): to the
		// matching escaped quote
		q := s[j+1]
		e := j + 2
		for e < len(s) && s[e] != '\n' && !(s[e] == q && s[e-1] == '\\') {
			e++
		}
		if e < len(s) && s[e] == q {
			e-- // the backslash before it
		}
		return j + 2, max(e, j+2)
	}
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		q := s[j]
		e := j + 1
		for e < len(s) && s[e] != q && s[e] != '\n' {
			e++
		}
		return j + 1, e
	}
	e := j
	for e < len(s) {
		c := s[e]
		if c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '`' {
			break
		}
		if !line && (c == ' ' || c == '\t' || c == ',' || c == '}' || c == ']') {
			break
		}
		if mode == valueWord && (c == '&' || c == ';' || c == ')' || c == '<' || c == '>') {
			break
		}
		e++
	}
	for line && e > j && (s[e-1] == ' ' || s[e-1] == '\t') {
		e--
	}
	return j, e
}

// skipValue reports whether a value is no literal secret: a variable, a placeholder, a mask or
// an earlier redaction.
func skipValue(v string) bool {
	if v == "" || v[0] == '$' || v[0] == '<' || v[0] == '{' || strings.Contains(v, "[REDACTED") {
		return true
	}
	for i := 0; i < len(v); i++ {
		if v[i] != '*' && v[i] != 'x' && v[i] != 'X' && v[i] != '.' {
			return false
		}
	}
	return true // ****, xxxx, ...
}

// option matches command-line options that carry a password: --password VALUE (and the other
// long options of sensitive names, with a blank or '='), mysql's and sshpass's -pVALUE /
// -p VALUE, and curl's -u user:password.
func option(s string, i int) (int, int, string) {
	if i > 0 && !isBlank(s[i-1]) {
		return 0, 0, ""
	}
	if long := strings.HasPrefix(s[i:], "--"); long || i+1 < len(s) && isLower(s[i+1]) {
		// --name VALUE, --name=VALUE, and Go's -name VALUE
		from := i + 1
		if long {
			from++
		}
		n := from
		for n < len(s) && (isAlnum(s[n]) || s[n] == '-' || s[n] == '_') {
			n++
		}
		name := s[from:n]
		if long && (name == "user" || name == "proxy-user") && n < len(s) && (s[n] == ' ' || s[n] == '=') && lineHas(s, i, "curl") {
			return userPassword(s, n+1) // curl --user user:password
		}
		kind, min := sensitive(name)
		if !long && (len(name) < 4 || !endsSecret(name) || name[0] == 'p' && (lineHas(s, i, "mysql") || lineHas(s, i, "mariadb") || lineHas(s, i, "sshpass"))) {
			kind = "" // -pVALUE: a short option with its value attached
		}
		if kind != "" && kind != KindAuth && n < len(s) && (s[n] == ' ' || s[n] == '=') {
			start, end := value(s, n+1, valueWord)
			if n, k := token(s[start:end]); k != "" && n == end-start {
				return start, end, k
			}
			if end-start < min || skipValue(s[start:end]) || s[start] == '-' || notLiteral(s[start:end], kind) {
				return 0, 0, ""
			}
			return start, end, kind
		}
		if long {
			return 0, 0, ""
		}
	}
	if len(s) < i+3 {
		return 0, 0, ""
	}
	j := i + 2
	switch s[i+1] {
	case 'p':
		// mysql -pSECRET (attached; "-p name" asks for it), sshpass -p SECRET / -pSECRET /
		// -p'SECRET', docker login -p SECRET
		switch {
		case lineHas(s, i, "sshpass"), lineHas(s, i, "docker") && lineHas(s, i, "login"), lineHas(s, i, "podman") && lineHas(s, i, "login"):
			if s[j] == ' ' {
				j++
			}
		case isBlank(s[j]) || s[j] == '-' || !(lineHas(s, i, "mysql") || lineHas(s, i, "mariadb")):
			return 0, 0, ""
		}
	case 'a':
		// redis-cli -a SECRET / -aSECRET
		if !lineHas(s, i, "redis-cli") {
			return 0, 0, ""
		}
		if s[j] == ' ' {
			j++
		}
	case 'u':
		// curl -u user:password, -uuser:password
		if !lineHas(s, i, "curl") {
			return 0, 0, ""
		}
		if s[j] == ' ' {
			j++
		}
		return userPassword(s, j)
	default:
		return 0, 0, ""
	}
	if j >= len(s) || s[j] == '-' {
		return 0, 0, ""
	}
	start, end := value(s, j, valueWord)
	if end == start || skipValue(s[start:end]) {
		return 0, 0, ""
	}
	return start, end, KindPassword
}

// userPassword matches the password of a user:password value starting at s[j] (curl's -u).
func userPassword(s string, j int) (int, int, string) {
	if j >= len(s) {
		return 0, 0, ""
	}
	start, end := value(s, j, valueWord)
	c := strings.Index(s[start:end], ":")
	if c <= 0 || start+c+1 >= end || skipValue(s[start+c+1:end]) {
		return 0, 0, ""
	}
	return start + c + 1, end, KindPassword
}

// bearer matches the token after "Bearer ": at least 8 token bytes with a digit.
func bearer(s string, j int) (int, int, string) {
	e, digit := j, false
	for e < len(s) && (isB64URL(s[e]) || s[e] == '.' || s[e] == '~' || s[e] == '+' || s[e] == '/' || s[e] == '=') {
		digit = digit || isDigit(s[e])
		e++
	}
	if e-j < 8 || !digit || strings.HasPrefix(s[j:], "[REDACTED") {
		return 0, 0, ""
	}
	return j, e, KindBearer
}

// lineHas reports whether the line around s[i] contains word.
func lineHas(s string, i int, word string) bool {
	line, _, _ := strings.Cut(s[strings.LastIndexByte(s[:i], '\n')+1:], "\n") // (no newline in s[…:i])
	return strings.Contains(line, word)
}

// boundaryBefore reports whether a token may start at s[i]: not inside a longer word.
func boundaryBefore(s string, i int) bool {
	return i == 0 || !(isAlnum(s[i-1]) || s[i-1] == '_' || s[i-1] == '-')
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func isAlnum(c byte) bool  { return isDigit(c) || isUpper(c) || isLower(c) }
func isWord(c byte) bool   { return isAlnum(c) || c == '_' }
func isB64URL(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }
func isSlack(c byte) bool  { return isAlnum(c) || c == '-' }
func isB64(c byte) bool    { return isB64URL(c) || c == '+' || c == '/' || c == '=' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func isLowerHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f'
}
func isHexDash(c byte) bool { return isHex(c) || c == '-' }
func isBlank(c byte) bool   { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isKeyByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.'
}

func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// equalFold compares ASCII case-insensitively; want is lower-case. (Inlined where
// strings.EqualFold is a call: the names are compared at every key.)
func equalFold(s, want string) bool {
	if len(s) != len(want) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != want[i] {
			return false
		}
	}
	return true
}

func hasSuffixFold(s, suf string) bool {
	return len(s) >= len(suf) && equalFold(s[len(s)-len(suf):], suf)
}

func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && equalFold(s[:len(p)], p)
}
