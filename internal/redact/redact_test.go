package redact

import (
	"strings"
	"testing"
)

// Real-looking shapes (made up, of the real formats) and the text they sit in.
var secrets = []struct {
	name, in, want string
}{
	{"anthropic", "export ANTHROPIC_API_KEY=sk-ant-api03-Xq7vR2mK9pL4nT8wZ1cF6hJ3bD5gS0aE-yU2iO9kM4nB7vC1xZ8qW3eR6tY0uI5oP2aS4dF7gH9jK1lZ3xC5vB8nM0qW-AbCdEfAA",
		"export ANTHROPIC_API_KEY=[REDACTED: anthropic key]"},
	{"anthropic bare", "the key sk-ant-admin01-AbCdEf0123456789GhIjKlMnOpQrStUv leaked", "the key [REDACTED: anthropic key] leaked"},
	{"openai project", "OPENAI_API_KEY=sk-proj-4fGh7Jk2Lm9Np3Qr6St8Uv1Wx5Yz0Ab_Cd-Ef2Gh4Ij6Kl8Mn0Op2Qr4St6Uv8Wx0Yz2Ab4Cd6Ef8Gh0Ij2KlT3BlbkFJ",
		"OPENAI_API_KEY=[REDACTED: openai key]"},
	{"openai legacy", `client = OpenAI(api_key="sk-4fGh7Jk2Lm9Np3Qr6St8T3BlbkFJUv1Wx5Yz0Ab2Cd4Ef6")`, `client = OpenAI(api_key="[REDACTED: openai key]")`},
	{"github classic", "git clone https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r.git",
		"git clone https://[REDACTED: github token]@github.com/o/r.git"},
	{"github oauth", "token gho_16C7e42F292c6912E7710c838347Ae178B4a", "token [REDACTED: github token]"},
	{"github server", "GH_TOKEN=ghs_16C7e42F292c6912E7710c838347Ae178B4a gh pr create", "GH_TOKEN=[REDACTED: github token] gh pr create"},
	{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
		"[REDACTED: github token]"},
	{"aws access key", "aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "aws configure set aws_access_key_id [REDACTED: aws access key]"},
	{"aws session key", "ASIAY34FZKBOKMUTVV7A in use", "[REDACTED: aws access key] in use"},
	{"aws secret by name", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED: secret]"},
	{"slack bot", "SLACK=xoxb-2048-1024-AbCdEfGhIjKlMnOp curl", "SLACK=[REDACTED: slack token] curl"},
	{"slack user", "xoxp-1234567890-1234567890-abcdefABCDEF", "[REDACTED: slack token]"},
	{"google", "https://maps.googleapis.com/api?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY&q=1",
		"https://maps.googleapis.com/api?key=[REDACTED: google api key]&q=1"},
	{"gitlab", "glpat-xK9mP2vL7nQ4wR8tY1zA push", "[REDACTED: gitlab token] push"},
	{"npm", "//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "//registry.npmjs.org/:_authToken=[REDACTED: npm token]"},
	{"stripe live", "stripe.api_key = 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr'", "stripe.api_key = '[REDACTED: stripe key]'"},
	{"stripe test restricted", "rk_test_51HxYzAbCdEfGhIjKlMnOpQr", "[REDACTED: stripe key]"},
	{"jwt", "cookie: session=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U;",
		"cookie: session=[REDACTED: jwt];"},
	{"authorization header", `curl -H "Authorization: Basic dXNlcjpodW50ZXIy" https://api.example.com`, `curl -H "Authorization: [REDACTED: authorization]" https://api.example.com`},
	{"authorization json", `{"authorization":"token abc123def456"}`, `{"authorization":"[REDACTED: authorization]"}`},
	{"proxy authorization", "Proxy-Authorization: Basic Zm9vOmJhcg==\nnext line", "Proxy-Authorization: [REDACTED: authorization]\nnext line"},
	{"bearer", "use Bearer abc.def-123_456 for it", "use Bearer [REDACTED: bearer token] for it"},
	{"password query", "https://db.example.com/login?user=ann&password=hunter2&x=1", "https://db.example.com/login?user=ann&password=[REDACTED: password]&x=1"},
	{"password env", "DB_PASSWORD=s3cr3t! ./migrate", "DB_PASSWORD=[REDACTED: password] ./migrate"},
	{"password toml", `password = "correct horse battery staple"`, `password = "[REDACTED: password]"`},
	{"password yaml", "  password: Tr0ub4dor&3", "  password: [REDACTED: password]"},
	{"--password", "psql --password hunter2 -h db", "psql --password [REDACTED: password] -h db"},
	{"--password=", "mysqldump --password=hunter2 db", "mysqldump --password=[REDACTED: password] db"},
	{"--token", "tool --token abcdef0123456789 run", "tool --token [REDACTED: secret] run"},
	{"mysql -p", "mysql -u root -phunter2 shop", "mysql -u root -p[REDACTED: password] shop"},
	{"sshpass -p", "sshpass -p hunter2 ssh host", "sshpass -p [REDACTED: password] ssh host"},
	{"curl -u", "curl -u ann:hunter2 https://x", "curl -u ann:[REDACTED: password] https://x"},
	{"url password", "git push https://ann:hunter2@git.example.com/r.git", "git push https://ann:[REDACTED: password]@git.example.com/r.git"},
	{"url password postgres", "DATABASE_URL=postgres://app:Zx9!kq@db:5432/app", "DATABASE_URL=postgres://app:[REDACTED: password]@db:5432/app"},
	{"client secret", `"client_secret": "8Q~abcDEF123ghiJKL456"`, `"client_secret": "[REDACTED: secret]"`},
	{"x-api-key header", "x-api-key: 0123456789abcdef0123", "x-api-key: [REDACTED: secret]"},
	{"private key", "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\ndone",
		"key:\n[REDACTED: private key]\ndone"},
	{"private key rsa cut", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7", "[REDACTED: private key]"},
	{"escaped json in a shell string", `curl -d "{\"password\":\"hunter2secret\"}" https://x`, `curl -d "{\"password\":\"[REDACTED: password]\"}" https://x`},
	{"escaped json secret", `echo "{\"api_key\": \"0123456789abcdef\", \"n\": 1}"`, `echo "{\"api_key\": \"[REDACTED: secret]\", \"n\": 1}"`},
	{"log escaped quotes", `level=info password=\"hunter2\" user=ann`, `level=info password=\"[REDACTED: password]\" user=ann`},
	{"curl --user", "curl --user admin:s3cretpw https://x", "curl --user admin:[REDACTED: password] https://x"},
	{"curl --user=", "curl --user=admin:s3cretpw https://x", "curl --user=admin:[REDACTED: password] https://x"},
	{"curl -u attached", "curl -uadmin:s3cretpw https://x", "curl -uadmin:[REDACTED: password] https://x"},
	{"docker login -p", "docker login -u ann -p dckr_pat_AbC123 registry.example.com", "docker login -u ann -p [REDACTED: password] registry.example.com"},
	{"sshpass -p quoted", "sshpass -p'hunter2' ssh host", "sshpass -p'[REDACTED: password]' ssh host"},
	{"sshpass -p attached", "sshpass -phunter2 ssh host", "sshpass -p[REDACTED: password] ssh host"},
	{"redis-cli -a", "redis-cli -h cache -a s3cr3tpass ping", "redis-cli -h cache -a [REDACTED: password] ping"},
	{"DB_PASS", "DB_PASS=hunter2 ./run", "DB_PASS=[REDACTED: password] ./run"},
	{"MYSQL_PWD", "MYSQL_PWD=hunter2 mysql -u root", "MYSQL_PWD=[REDACTED: password] mysql -u root"},
	{"url password with slash", "DATABASE_URL=postgres://app:pa/ss#w0rd@db:5432/app", "DATABASE_URL=postgres://app:[REDACTED: password]@db:5432/app"},
	{"url password with query chars", "redis://:p?a#ss@cache:6379", "redis://:[REDACTED: password]@cache:6379"},
	{"aws secret after a blank", "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws configure set aws_secret_access_key [REDACTED: secret]"},
	{"aws session token after a blank", "aws configure set aws_session_token FwoGZXIvYXdzEJr//////////wEaDEXAMPLE", "aws configure set aws_session_token [REDACTED: secret]"},
	{"slack webhook", "curl -X POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/AbCdEfGhIjKlMnOpQrStUvWx -d x",
		"curl -X POST https://hooks.slack.com/services/[REDACTED: slack webhook] -d x"},
	{"two in one", "A=ghp_16C7e42F292c6912E7710c838347Ae178B4a B=AKIAIOSFODNN7EXAMPLE", "A=[REDACTED: github token] B=[REDACTED: aws access key]"},
}

// Near misses that must survive as they are.
var survivors = []string{
	"commit 3f1c2ab9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3 on main",
	"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"session 730c8849-a6f0-454b-a922-063e0b765bf2 and 550E8400-E29B-41D4-A716-446655440000",
	"blob SGVsbG8sIFdvcmxkISBUaGlzIGlzIGEgYmFzZTY0IGJsb2IgdGhhdCBpcyBub3QgYSBrZXku",
	"image data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	"eyJhbGciOiJIUzI1NiJ9 alone is a base64 JSON header, not a token",
	"the task-ant-colony and desk-lamp-12345678901234567890abc",
	"risk-assessment-2026-final-version-ABCdef123",
	"sklearn and sk-learn and sk-short1A",
	"my_ghp_16C7e42F292c6912E7710c838347Ae178B4a_var",
	"npm_config_cache=/tmp/npm",
	"ASIANCUISINERESTAURANTS and AKIA lowercase akiaiosfodnn7example",
	"mkdir -p build && ssh -p 22 host && docker run -p 8080:80 img && find . -print && gcc -pthread",
	"https://github.com/zoneline/zoneline and git@github.com:o/r.git and https://host:8443/path and ssh://git@host:22/r",
	`{"input_tokens":500,"cache_creation_input_tokens":1500,"max_tokens":128000,"output_tokens":120}`,
	"token=abc tokens=5 token_count=12345678",
	"password reset link sent; the password field is required",
	"PASSWORD=$DB_PASS TOKEN=${GITHUB_TOKEN} password=<your password> secret=******** api_key=xxxxxxxxxxxx",
	"--password-file /run/secret --token-stdin",
	"the bearer of bad news; Bearer authentication",
	"prompt_id 204958c3-9a59-4ebc-a835-f696d0e2bd98 at 10:35:00Z cwd: /home/user/project",
	"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
	"already [REDACTED: password] and password=[REDACTED: password]",
	`curl -H "Authorization: Bearer $GITHUB_TOKEN" -H 'Authorization: token ${GH_TOKEN}' https://api.github.com`,
	"password=$(cat /run/secrets/db) token=$(gh auth token)",
	"PWD=/home/user/project OLDPWD=/tmp cd $PWD",
	"docker run -p 8080:80 -u 1000:1000 img && docker run --user 1000:1000 img && redis-server -a && ls -a /tmp",
	"https://host:8443/users/@me and https://example.com/a/b@c and http://localhost:3000/#/route@x",
	"bypass=1 compass=north --user ann",
	"aws_secret_access_key and aws_session_token are the names; aws_secret_access_key $AWS_SECRET",
	"https://hooks.slack.com/services/ and https://api.slack.com/apps",
	`echo "{\"n\":1}" and "{\"password\":\"\"}"`,
	"",
}

func TestString(t *testing.T) {
	for _, tt := range secrets {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := String(tt.want); again != tt.want {
				t.Errorf("not idempotent: %q → %q", tt.want, again)
			}
		})
	}
}

func TestNearMisses(t *testing.T) {
	for _, s := range survivors {
		if got := String(s); got != s {
			t.Errorf("changed a near miss:\n in  %q\n out %q", s, got)
		}
	}
}

// TestNoAllocation: text with nothing to redact is returned as it is (the log is on the hot path).
func TestNoAllocation(t *testing.T) {
	s := strings.Join(survivors, "\n")
	if n := testing.AllocsPerRun(100, func() { String(s) }); n != 0 {
		t.Errorf("%v allocations for text with nothing to redact", n)
	}
}

func FuzzString(f *testing.F) {
	for _, tt := range secrets {
		f.Add(tt.in)
	}
	for _, s := range survivors {
		f.Add(s)
	}
	for _, tt := range generalSecrets {
		f.Add(tt.in)
	}
	for _, s := range generalSurvivors {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if String(out) != out {
			t.Errorf("not idempotent: %q → %q → %q", s, out, String(out))
		}
		if !strings.Contains(out, Marker) && out != s {
			t.Errorf("changed text without a marker: %q → %q", s, out)
		}
	})
}

func BenchmarkStringClean(b *testing.B) {
	s := "2026-12-01T08:41:12Z hook: UserPromptSubmit: recording the prompt: open /home/user/.local/state/zoneline/sessions/730c8849-a6f0-454b-a922-063e0b765bf2/prompt.json: permission denied"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		String(s)
	}
}
