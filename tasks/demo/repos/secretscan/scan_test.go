package main

import (
	"math"
	"strings"
	"testing"
)

// Fake credentials are assembled from pieces so that this file itself does
// not look like it leaks anything.
var (
	fakeAWSID     = "AKIA" + "4HZQ7WLT2VMXKD6P"
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	fakeGitHub    = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
	fakeSlack     = "xoxb-" + "2948571034-5839201746-" + "Zq8Lr3Vt6Ny1Kw4Pb7Hs9Dm2"
	fakeStripe    = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
	fakeGoogle    = "AIza" + "SyD4k9Qw3Lp7Rt2Xv8Nm5Bc1Hj6Fg0Ks2Ye"
	fakeJWT       = "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiJjaS1kZXBsb3llciJ9" + "." + "c2lnbmF0dXJlLWlzLWhlcmUtMTIz"
	fakeRandom    = "Ru1hm8qMaktAzW9S" + "gQpyjrosb4UDLEiJ"
)

func TestRulesFindSecrets(t *testing.T) {
	cases := []struct {
		line, rule, secret string
	}{
		{"AWS_ACCESS_KEY_ID=" + fakeAWSID, "aws-access-key-id", fakeAWSID},
		{"aws_secret_access_key = " + fakeAWSSecret, "aws-secret-access-key", fakeAWSSecret},
		{`"AwsSecretKey": "` + fakeAWSSecret + `",`, "aws-secret-access-key", fakeAWSSecret},
		{"token: " + fakeGitHub, "github-token", fakeGitHub},
		{"SLACK_BOT_TOKEN=" + fakeSlack, "slack-token", fakeSlack},
		{"url = https://hooks.slack.com/services/T04QX8N2R/B05LM7K3P/abcdefghijklmnopqrstuvwx", "slack-webhook", "T04QX8N2R/B05LM7K3P/abcdefghijklmnopqrstuvwx"},
		{`stripe.api_key = "` + fakeStripe + `"`, "stripe-key", fakeStripe},
		{"key=" + fakeGoogle + "&q=x", "google-api-key", fakeGoogle},
		{"Authorization: Bearer " + fakeJWT, "jwt", fakeJWT},
		{"DATABASE_URL=postgres://orders:Wint3r-Sky-42@db:5432/orders", "url-credentials", "Wint3r-Sky-42"},
		{`DB_PASSWORD=hunter2!`, "password-assignment", "hunter2!"},
		{`    "PASSWORD": "Tr0ub4dor&3",`, "password-assignment", "Tr0ub4dor&3"},
		{`db_password: 'correct horse battery staple'`, "password-assignment", "correct horse battery staple"},
		{`mysql --user=admin --password=S3cure!Pass2024 -e 'x'`, "password-assignment", "S3cure!Pass2024"},
		{`pwd := "s3cr3t-pw"`, "password-assignment", "s3cr3t-pw"},
		{`SECRET_KEY = "k9#2v!x7@qz$w1m&n4p^r8t"`, "secret-assignment", "k9#2v!x7@qz$w1m&n4p^r8t"},
		{`client_secret: 8f3kd92jf83kd0`, "secret-assignment", "8f3kd92jf83kd0"},
		{"session=" + fakeRandom + " user=bob", "high-entropy-string", fakeRandom},
	}
	for _, c := range cases {
		fs := Scan(c.line, Options{})
		if len(fs) != 1 {
			t.Errorf("%q: got %d findings %+v, want 1 (%s)", c.line, len(fs), fs, c.rule)
			continue
		}
		if fs[0].Rule != c.rule || fs[0].Secret != c.secret {
			t.Errorf("%q: got %s %q, want %s %q", c.line, fs[0].Rule, fs[0].Secret, c.rule, c.secret)
		}
	}
}

func TestNoFalsePositives(t *testing.T) {
	clean := []string{
		"PASSWORD_HASHERS = [\"django.contrib.auth.hashers.Argon2PasswordHasher\"]",
		"PASSWORD_RESET_TIMEOUT = 259200",
		`EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD")`,
		"SMTP_PASSWORD=${SMTP_PASSWORD}",
		`password = "{{ vault_db_password }}"`,
		`password: "********"`,
		`if password == "":`,
		`def login(user: str, password: str) -> bool:`,
		`let password: string;`,
		`token_type: bearer`,
		`auth_token: required`,
		`password = settings.DB_PASSWORD`,
		`password = "[REDACTED]"`,
		"request_id=6f1c2a9e-4b7d-4e21-9c3f-8a5d0e7b1f24",
		"sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"see /usr/local/lib/python3.11/site-packages/requests/adapters.py",
		"REDIS_URL=redis://cache.internal:6379/0",
		"The quick brown fox jumps over the lazy dog.",
		"AKIAIOSFODNN7EXAMPLEX is too long to be a key id",
		"AWS_ACCESS_KEY_ID=" + fakeAWSID + " # secretscan:allow",
	}
	for _, line := range clean {
		if fs := Scan(line, Options{}); len(fs) != 0 {
			t.Errorf("%q: unexpected findings %+v", line, fs)
		}
	}
}

func TestPrivateKeyBlock(t *testing.T) {
	text := "key: |\n  -----BEGIN RSA PRIVATE KEY-----\n  " + fakeRandom + fakeRandom + "\n  " + fakeAWSSecret +
		"\n  -----END RSA PRIVATE KEY-----\nname: web\n"
	fs := Scan(text, Options{})
	if len(fs) != 1 || fs[0].Rule != privateKeyRule || fs[0].Line != 2 || fs[0].Column != 3 {
		t.Fatalf("got %+v", fs)
	}
	if got := fs[0].Masked(); got != "-----BEGIN RSA PRIVATE KEY-----" {
		t.Errorf("Masked = %q", got)
	}
	want := "key: |\n  [REDACTED]\nname: web\n"
	if got := Redact(text, fs, "[REDACTED]"); got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
	// A key on one line, as in JSON, and an unterminated block.
	inline := `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEv` + fakeRandom + `\n-----END PRIVATE KEY-----\n", "id": 7}`
	fs = Scan(inline, Options{})
	if len(fs) != 1 || Redact(inline, fs, "X") != `{"private_key": "X\n", "id": 7}` {
		t.Errorf("inline key: %+v", fs)
	}
	open := "a\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n"
	fs = Scan(open, Options{})
	if len(fs) != 1 || Redact(open, fs, "X") != "a\nX\n" {
		t.Errorf("unterminated key: %+v", fs)
	}
}

func TestRedactLeavesNothingBehind(t *testing.T) {
	text := strings.Join([]string{
		"export AWS_ACCESS_KEY_ID=" + fakeAWSID,
		"export AWS_SECRET_ACCESS_KEY=" + fakeAWSSecret,
		"GH_TOKEN=" + fakeGitHub + " # for releases",
		"DB_URL=mysql://app:p4ssw0rd@db/app",
		"password = 'hunter2!'",
		"echo ok",
	}, "\n") + "\n"
	fs := Scan(text, Options{})
	if len(fs) != 5 {
		t.Fatalf("got %d findings: %+v", len(fs), fs)
	}
	clean := Redact(text, fs, "[REDACTED]")
	for _, f := range fs {
		if strings.Contains(clean, f.Secret) {
			t.Errorf("redacted text still holds %q", f.Secret)
		}
	}
	if !strings.Contains(clean, "GH_TOKEN=[REDACTED] # for releases\n") || !strings.HasSuffix(clean, "echo ok\n") {
		t.Errorf("redacted text lost context:\n%s", clean)
	}
	if again := Scan(clean, Options{}); len(again) != 0 {
		t.Errorf("redacted text still has findings: %+v", again)
	}
}

func TestOptions(t *testing.T) {
	line := "session=" + fakeRandom
	if fs := Scan(line, Options{Disabled: map[string]bool{"high-entropy-string": true}}); len(fs) != 0 {
		t.Errorf("disabled rule still reported: %+v", fs)
	}
	if fs := Scan(line, Options{MinEntropy: 5.5}); len(fs) != 0 {
		t.Errorf("threshold 5.5 still reported: %+v", fs)
	}
}

func TestMask(t *testing.T) {
	cases := map[string]string{
		fakeAWSID:  "AKIA****************",
		"hunter2!": "hu******",
		"abc":      "***",
		"":         "",
		fakeGitHub: "ghp_****************",
	}
	for in, want := range cases {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEntropy(t *testing.T) {
	cases := map[string]float64{
		"":                 0,
		"aaaa":             0,
		"ab":               1,
		"abcd":             2,
		"aabb":             1,
		"0123456789abcdef": 4,
		"aab":              -(2.0/3*math.Log2(2.0/3) + 1.0/3*math.Log2(1.0/3)),
	}
	for in, want := range cases {
		if got := Entropy(in); math.Abs(got-want) > 1e-12 {
			t.Errorf("Entropy(%q) = %v, want %v", in, got, want)
		}
	}
}
