package redact

import "strings"

// notLiteral reports whether the value of a secret-named key is plainly no secret: a boolean
// or null (passwordless: true), and but for a password (a PIN is one) a number (token_id=4096),
// or code that computes one (a call: getToken(), os.Getenv("…"); an attribute: config.api_key,
// self.secret).
func notLiteral(v, kind string) bool {
	switch lowerWord(v) {
	case "true", "false", "null", "nil", "none", "undefined", "yes", "no", "on", "off", "required", "optional":
		return true
	}
	if kind == KindPassword {
		return false
	}
	if allDigits(v) || strings.Contains(v, "(") {
		return true
	}
	// identifier.identifier…: an attribute, not a value (a dotted token is matched by token
	// first: hvs.…, a JWT)
	dots, start := 0, 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == '.' {
			w := v[start:i]
			if w == "" || isDigit(w[0]) {
				return false
			}
			for j := 0; j < len(w); j++ {
				if !isWord(w[j]) {
					return false
				}
			}
			if i < len(v) {
				dots++
			}
			start = i + 1
		}
	}
	return dots > 0
}

// lowerWord returns v when it is a short lower-case word, else "" (no allocation: the few
// words notLiteral knows are compared case-sensitively after this check).
func lowerWord(v string) string {
	if len(v) > 9 {
		return ""
	}
	for i := 0; i < len(v); i++ {
		if !isLower(v[i]) {
			return ""
		}
	}
	return v
}

// sensitive returns the kind of a key whose value is a credential, and the shortest value taken
// for one ("" when the key is not sensitive). A name is sensitive when it holds (ASCII case
// folded, "_", "-" and "." ignored) one of secretWords, or ends like a password's; it is not
// when it ends in one of notSecretEnds (the value is about the secret, not the secret:
// TOKEN_URL, PASSWORD_MIN_LENGTH, --token-file, max_tokens). One pass over the name finds the
// word; only a sensitive name is checked against the exemptions.
func sensitive(key string) (string, int) {
	kind, min := "", 0
	switch {
	case equalFold(key, "authorization"), hasSuffixFold(key, "-authorization"):
		return KindAuth, 1
	case equalFold(key, "sig"): // an Azure shared access signature's
		return KindSecret, 16
	case equalFold(key, "pass"), hasSuffixFold(key, "_pass"), hasSuffixFold(key, "-pass"), hasSuffixFold(key, ".pass"),
		hasSuffixFold(key, "_pwd"), hasSuffixFold(key, "-pwd"): // DB_PASS, MYSQL_PWD (not PWD, the cwd)
		kind, min = KindPassword, 1
	default:
		switch secretWordIn(key) {
		case "":
			return "", 0
		case "password", "passwd", "passphrase":
			kind, min = KindPassword, 1
		default:
			kind, min = KindSecret, 8
		}
	}
	for _, e := range notSecretEnds {
		if endsWithName(key, e) {
			return "", 0
		}
	}
	return kind, min
}

// secretWordIn returns the first of secretWords (or a password's word) name holds, "" when none.
func secretWordIn(name string) string {
	for i := 0; i < len(name); i++ {
		var w string
		switch lower(name[i]) {
		case 's':
			w = firstAt(name, i, "secret", "sessionkey", "signingkey")
		case 't':
			w = firstAt(name, i, "token")
		case 'p':
			w = firstAt(name, i, "password", "passwd", "passphrase", "private")
		case 'a':
			w = firstAt(name, i, "apikey", "accesskey", "accountkey", "authkey")
		case 'c':
			w = firstAt(name, i, "credential")
		case 'e':
			w = firstAt(name, i, "encryptionkey")
		case 'm':
			w = firstAt(name, i, "masterkey")
		}
		if w != "" {
			return w
		}
	}
	return ""
}

// firstAt returns the first of words that name holds at i (nameAt), "" when none.
func firstAt(name string, i int, words ...string) string {
	for _, w := range words {
		if nameAt(name, i, w) {
			return w
		}
	}
	return ""
}

// nameAt reports whether name holds word from name[i] on, "_", "-" and "." in name skipped.
func nameAt(name string, i int, word string) bool {
	k := 0
	for i < len(name) && k < len(word) {
		if isSep(name[i]) {
			i++
			continue
		}
		if lower(name[i]) != word[k] {
			return false
		}
		i, k = i+1, k+1
	}
	return k == len(word)
}

// secretWords (secretWordIn's switch) make a name sensitive anywhere in it: SECRET_KEY,
// DJANGO_SECRET_KEY, client-secret, GITHUB_TOKEN, x-api-key, apiKey, AccountKey, PRIVATE_KEY,
// credentials; with password, passwd and passphrase, a password's name.

// notSecretEnds end names whose value is about a secret, not the secret: where it is (a URL, a
// path, a file, a folder, a host), what it is called or of what type, how long or how many
// (a rule, a counter: max_tokens, input_tokens), when it expires, whether it is on.
var notSecretEnds = [...]string{"url", "uri", "endpoint", "host", "path", "file", "dir", "name", "type",
	"length", "len", "count", "tokens", "size", "limit", "ttl", "expiry", "expires", "expiresat", "expiresin", "timeout",
	"enabled", "required", "header", "field", "param", "env", "stdin", "command", "cmd", "helper", "prompt", "policy", "rotation",
	"tokenizer", "tokenization"}

// endsWithName is nameAt anchored at name's end, and at a word's start: "tokenurl" ends
// with "url", "curl" does not.
func endsWithName(name, word string) bool {
	j, k := len(name), len(word)
	for j > 0 && k > 0 {
		if isSep(name[j-1]) {
			j--
			continue
		}
		if lower(name[j-1]) != word[k-1] {
			return false
		}
		j, k = j-1, k-1
	}
	if k > 0 {
		return false
	}
	// the word starts the name, follows a separator, or starts a camelCase word
	return j == 0 || isSep(name[j-1]) || isUpper(name[j]) && isLower(name[j-1])
}

// endsSecret reports whether a name ends in a secret word (-token, -password, -api-key): a
// single-dash option taken as a long one.
func endsSecret(name string) bool {
	for _, w := range [...]string{"token", "secret", "password", "passwd", "apikey", "accesskey", "accountkey"} {
		if endsWithName(name, w) {
			return true
		}
	}
	return false
}

func isSep(c byte) bool { return c == '_' || c == '-' || c == '.' }
