package redact

import "strings"

// A prefix rule: a provider's token is prefix followed by at least min bytes of class, ending
// at a boundary. (A static table: nothing is built at init.)
type prefixRule struct {
	prefix string
	min    int
	class  func(byte) bool
	kind   string
}

// prefixes are the documented token prefixes whose body is a plain run of one class, sorted by
// their first byte (token finds a byte's rules by binary search; TestTokenStart keeps it so). The
// shapes with more to them (AWS key ids, JWTs, OpenAI's mixed-case keys, GitHub's, SendGrid's,
// Doppler's, Twilio's) are token's own cases.
var prefixes = [...]prefixRule{
	{"AIza", 35, isB64URL, KindGoogle},
	{"AGE-SECRET-KEY-1", 50, isAlnum, KindPrivateKey},
	{"ATATT", 50, isB64, KindAtlassian},
	{"GOCSPX-", 24, isB64URL, KindGoogle},
	{"HRKU-", 20, isB64URL, KindHeroku},
	{"PMAK-", 40, isSlack, KindPostman},
	{"dop_v1_", 40, isAlnum, KindDigitalOcean},
	{"doo_v1_", 40, isAlnum, KindDigitalOcean},
	{"dor_v1_", 40, isAlnum, KindDigitalOcean},
	{"dckr_pat_", 20, isB64URL, KindDocker},
	{"dapi", 32, isHexDash, KindDatabricks},
	{"github_pat_", 40, isWord, KindGitHub},
	{"glpat-", 20, isB64URL, KindGitLab},
	{"gldt-", 20, isB64URL, KindGitLab},
	{"glrt-", 20, isB64URL, KindGitLab},
	{"glptt-", 20, isB64URL, KindGitLab},
	{"glsa_", 30, isWord, KindGrafana},
	{"glc_", 30, isB64, KindGrafana},
	{"gsk_", 40, isAlnum, KindGroq},
	{"hvs.", 20, isB64URL, KindVault},
	{"hvb.", 20, isB64URL, KindVault},
	{"hvr.", 20, isB64URL, KindVault},
	{"hf_", 30, isAlnum, KindHuggingFace},
	{"lin_api_", 32, isAlnum, KindLinear},
	{"lin_oauth_", 32, isAlnum, KindLinear},
	{"npm_", 36, isAlnum, KindNPM},
	{"nfp_", 36, isAlnum, KindNetlify},
	{"ops_eyJ", 50, isB64, KindOnePassword},
	{"pypi-", 50, isB64URL, KindPyPI},
	{"pul-", 40, isHex, KindPulumi},
	{"pplx-", 40, isAlnum, KindPerplexity},
	{"rk_live_", 16, isAlnum, KindStripe},
	{"rk_test_", 16, isAlnum, KindStripe},
	{"r8_", 30, isAlnum, KindReplicate},
	{"sk-ant-", 20, isB64URL, KindAnthropic},
	{"sk-or-", 32, isB64URL, KindOpenRouter},
	{"sk_live_", 16, isAlnum, KindStripe},
	{"sk_test_", 16, isAlnum, KindStripe},
	{"shpat_", 32, isHex, KindShopify},
	{"shpca_", 32, isHex, KindShopify},
	{"shppa_", 32, isHex, KindShopify},
	{"shpss_", 32, isHex, KindShopify},
	{"sntrys_", 40, isB64, KindSentry},
	{"sntryu_", 40, isHex, KindSentry},
	{"sbp_", 40, isHex, KindSupabase},
	{"tskey-", 20, isSlack, KindTailscale},
	{"whsec_", 24, isB64, KindStripe},
	{"xapp-", 20, isSlack, KindSlack},
	{"xai-", 60, isAlnum, KindXAI},
	{"ya29.", 30, isB64URL, KindGoogle},
}

// tokenStart are the bytes a token can start with (prefixes and token's own cases; a static
// table, TestTokenStart keeps it true).
var tokenStart = [256]bool{'A': true, 'G': true, 'H': true, 'P': true, 'S': true, 'd': true, 'e': true, 'g': true, 'h': true, 'l': true, 'n': true, 'o': true, 'p': true, 'r': true, 's': true, 't': true, 'w': true, 'x': true, 'y': true}

// token matches a provider's key or token at the start of s: its length and kind.
func token(s string) (int, string) {
	if s == "" || !tokenStart[s[0]] {
		return 0, ""
	}
	lo, hi := 0, len(prefixes)
	for lo < hi { // the first rule whose prefix starts with s[0] or a later byte
		if m := int(uint(lo+hi) >> 1); prefixes[m].prefix[0] < s[0] {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo; i < len(prefixes) && prefixes[i].prefix[0] == s[0]; i++ {
		r := &prefixes[i]
		if strings.HasPrefix(s, r.prefix) {
			if n, k := body(s, len(r.prefix), r.min, r.class, false, r.kind); k != "" {
				return n, k
			}
		}
	}
	switch s[0] {
	case 's':
		if strings.HasPrefix(s, "sk-") && !strings.HasPrefix(s, "sk-ant-") {
			return body(s, len("sk-"), 20, isB64URL, true, KindOpenAI)
		}
	case 'g':
		if len(s) > 4 && s[1] == 'h' && s[3] == '_' && (s[2] == 'p' || s[2] == 'o' || s[2] == 's' || s[2] == 'u' || s[2] == 'r') {
			return body(s, 4, 30, isAlnum, false, KindGitHub)
		}
	case 'x':
		if len(s) > 5 && strings.HasPrefix(s, "xox") && s[4] == '-' && (s[3] == 'b' || s[3] == 'p' || s[3] == 'a' || s[3] == 'r' || s[3] == 's' || s[3] == 'e') {
			return body(s, 5, 10, isSlack, false, KindSlack)
		}
	case 'A':
		if strings.HasPrefix(s, "AKIA") || strings.HasPrefix(s, "ASIA") {
			// exactly 16 upper-case letters and digits, at least one digit
			n, digit := 4, false
			for n < len(s) && n < 21 && (isUpper(s[n]) || isDigit(s[n])) {
				digit = digit || isDigit(s[n])
				n++
			}
			if n == 20 && digit && (n == len(s) || !isAlnum(s[n])) {
				return n, KindAWS
			}
		}
	case 'S':
		switch {
		case strings.HasPrefix(s, "SG."):
			return sendGrid(s)
		case strings.HasPrefix(s, "SK"):
			// a Twilio API key: SK and exactly 32 lower-case hex digits
			if n, k := body(s, 2, 32, isLowerHex, false, KindTwilio); n == 34 {
				return n, k
			}
		}
	case 'd':
		if strings.HasPrefix(s, "dp.") {
			return doppler(s)
		}
	case 'e':
		if strings.HasPrefix(s, "eyJ") {
			return jwt(s)
		}
	}
	return 0, ""
}

// sendGrid matches SG.<22>.<43>: two base64url parts.
func sendGrid(s string) (int, string) {
	n := 3
	for n < len(s) && isB64URL(s[n]) {
		n++
	}
	if n-3 < 16 || n >= len(s) || s[n] != '.' {
		return 0, ""
	}
	return body(s, n+1, 30, isB64URL, false, KindSendGrid)
}

// doppler matches dp.<kind>.<token>: dp.pt., dp.st., dp.sa., dp.ct., dp.scim., dp.audit.
func doppler(s string) (int, string) {
	n := 3
	for n < len(s) && n < 9 && isLower(s[n]) {
		n++
	}
	if n == 3 || n >= len(s) || s[n] != '.' {
		return 0, ""
	}
	return body(s, n+1, 40, isAlnum, false, KindDoppler)
}

// jwt matches header.payload.signature, each part base64url of at least 10 bytes.
func jwt(s string) (int, string) {
	n := 0
	for part := 0; part < 3; part++ {
		m := n
		for n < len(s) && isB64URL(s[n]) {
			n++
		}
		if n-m < 10 {
			return 0, ""
		}
		if part < 2 {
			if n >= len(s) || s[n] != '.' {
				return 0, ""
			}
			n++
		}
	}
	return n, KindJWT
}
