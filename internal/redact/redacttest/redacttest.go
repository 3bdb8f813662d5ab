// Package redacttest makes a seeded corpus of fake secrets for tests: fake
// keys and tokens of many kinds, each with the shape its issuer uses, planted
// in code, config, .env files, notebooks and logs. The secrets are made from
// a fixed seed when a test runs, so none is written in the repository and
// every run plants the same bytes.
package redacttest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Secret is one planted secret: Needle is its distinctive part, which must
// appear in no output. A Contextual secret is one only its place makes
// secret (a password after -p, in user:…@tcp(…)): planted alone in other
// text it is a word like any other.
type Secret struct {
	Kind       string
	Value      string
	Needle     string
	Contextual bool
}

// Decoy is text planted beside the secrets that looks like one and is not
// (a placeholder, a public key, a hash, a variable): Needle must survive
// redaction of the file at Path.
type Decoy struct {
	Kind   string
	Path   string
	Needle string
}

// Set is a generated corpus: the files by path, the secrets planted in
// them and the decoys.
type Set struct {
	Files   map[string]string
	Secrets []Secret
	Decoys  []Decoy
}

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	hexd   = "0123456789abcdef"
	b64    = alnum + "+/"
	urlb64 = alnum + "-_"
)

// gen draws random strings from a fixed seed.
type gen struct{ r *rand.Rand }

func (g gen) s(alphabet string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[g.r.IntN(len(alphabet))]
		}
		out := string(b)
		// Keep words that mark placeholders out of the random parts.
		low := strings.ToLower(out)
		if strings.Contains(low, "none") || strings.Contains(low, "null") || strings.Contains(low, "xxxx") || strings.Contains(low, "dummy") {
			continue
		}
		return out
	}
}

func (g gen) uuid() string {
	return g.s(hexd, 8) + "-" + g.s(hexd, 4) + "-4" + g.s(hexd, 3) + "-a" + g.s(hexd, 3) + "-" + g.s(hexd, 12)
}

// pemBody returns n lines of 64 base64 characters.
func (g gen) pemBody(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.s(b64, 64)
	}
	return lines
}

// Corpus returns the planted files (path → content) and their secrets,
// the same on every call.
func Corpus() (map[string]string, []Secret) {
	s := Generate()
	return s.Files, s.Secrets
}

// Generate returns the corpus with its decoys, the same on every call:
// token-shaped secrets (tokens), and passwords and keys inside larger
// credentials (credentials: connection strings, command lines, encoded
// key material).
func Generate() Set {
	g := gen{rand.New(rand.NewPCG(20261124, 12))}
	set := Set{Files: map[string]string{}}
	tokens(g, &set)
	credentials(gen{rand.New(rand.NewPCG(20261124, 27))}, &set)
	sort.Slice(set.Secrets, func(i, j int) bool { return set.Secrets[i].Kind < set.Secrets[j].Kind })
	sort.Slice(set.Decoys, func(i, j int) bool { return set.Decoys[i].Kind < set.Decoys[j].Kind })
	return set
}

// tokens plants token-shaped secrets (cloud keys, VCS and registry tokens,
// webhooks, AI keys, private key files) and assigned passwords.
func tokens(g gen, set *Set) {
	add := func(kind, value, needle string) string {
		if needle == "" {
			needle = value
		}
		set.Secrets = append(set.Secrets, Secret{Kind: kind, Value: value, Needle: needle})
		return value
	}
	files := set.Files

	// Python: the issue's own example, and friends.
	akid := add("aws-access-key-id", "AKIA"+g.s(upper, 16), "")
	awsSecret := add("aws-secret-access-key", g.s(b64, 40), "")
	ghp := add("github-pat", "ghp_"+g.s(alnum, 36), "")
	dbPass := add("password-assignment", "Tr0ub4dor&"+g.s(alnum, 6), "")
	pg := g.s(alnum, 18)
	add("connection-string", "postgres://app:"+pg+"@db.internal:5432/app", pg)
	files["app/settings.py"] = fmt.Sprintf(`"""Settings of the app."""
import os

AWS_ACCESS_KEY_ID = "%s"
AWS_SECRET_ACCESS_KEY = "%s"
GITHUB_TOKEN = "%s"


def connect(user="app"):
    """Open the database."""
    db_password = "%s"
    return open_db("postgres://app:%s@db.internal:5432/app", user, db_password)


class Client:
    token = "%s"

    def call(self, url):
        return fetch(url, headers={"Authorization": "token " + self.token})
`, akid, awsSecret, ghp, dbPass, pg, ghp)

	// Go: a raw-string EC key, a Stripe key, a fine-grained PAT.
	ecBody := g.pemBody(3)
	add("private-key-ec", ecBody[1], "")
	stripe := add("stripe-key", "sk_live_"+g.s(alnum, 24), "")
	fine := add("github-fine-grained-pat", "github_pat_"+g.s(alnum, 22)+"_"+g.s(alnum, 59), "")
	gho := add("github-oauth", "gho_"+g.s(alnum, 36), "")
	files["internal/pay/pay.go"] = fmt.Sprintf("// Package pay charges cards.\npackage pay\n\n// signingKey signs receipts.\nconst signingKey = `-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----`\n\n// Client talks to the processor.\ntype Client struct{ Key string }\n\n// New returns a client with the live key.\nfunc New() *Client { return &Client{Key: %q} }\n\nvar ghToken = %q\n\nfunc oauth() string { return %q }\n",
		strings.Join(ecBody, "\n"), stripe, fine, gho)

	// JavaScript: Slack, Google, SendGrid, Heroku, JWT, Mongo.
	slack := add("slack-token", "xoxb-"+g.s("0123456789", 11)+"-"+g.s("0123456789", 12)+"-"+g.s(alnum, 24), "")
	hook := add("slack-webhook", "https://hooks.slack.com/services/T"+g.s(upper, 8)+"/B"+g.s(upper, 8)+"/"+g.s(alnum, 24), "")
	gkey := add("google-api-key", "AIza"+g.s(urlb64, 35), "")
	sg := add("sendgrid-api-key", "SG."+g.s(urlb64, 22)+"."+g.s(urlb64, 43), "")
	heroku := add("heroku-api-key", g.uuid(), "")
	jwt := add("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJ"+g.s(urlb64, 40)+"."+g.s(urlb64, 43), "")
	mongo := g.s(alnum, 16)
	add("connection-string-mongo", "mongodb+srv://admin:"+mongo+"@cluster0.q4zkd.mongodb.net/db", mongo)
	files["web/src/client.js"] = fmt.Sprintf(`// The web client.
import { WebClient } from "@slack/web-api";

const SLACK_TOKEN = "%s";
const webhookUrl = "%s";
export const googleMapsKey = "%s";
const sendgridKey = '%s';
const herokuApiKey = "%s";

/** session returns the demo session. */
export function session() {
  return { jwt: "%s", db: "mongodb+srv://admin:%s@cluster0.q4zkd.mongodb.net/db" };
}
`, slack, hook, gkey, sg, heroku, jwt, mongo)

	// .env: every value goes.
	envSecret := add("env-value", "plain-"+g.s(alnum, 20), "")
	twilio := add("twilio-api-key", "SK"+g.s(hexd, 32), "")
	mg := add("mailgun-api-key", "key-"+g.s(hexd, 32), "")
	envPass := g.s(alnum, 14)
	add("env-database-url", "mysql://root:"+envPass+"@localhost/app", envPass)
	files[".env"] = fmt.Sprintf("# local settings\nSESSION_SECRET=%s\nTWILIO_API_KEY=%s\nexport MAILGUN_KEY=\"%s\"\nDATABASE_URL=mysql://root:%s@localhost/app\nDEBUG=\n", envSecret, twilio, mg, envPass)
	stagingVal := add("env-value-staging", "stage"+g.s(alnum, 16), "")
	files["deploy/.env.staging"] = "API_BASE=https://staging.internal\nAPI_TOKEN=" + stagingVal + "\n"
	prodVal := add("env-value-prod", g.s(alnum, 10)+"-prod", "")
	files["deploy/prod.env"] = "SIGNING_SALT=" + prodVal + "\n"

	// YAML: unquoted password, quoted API key, an npm token.
	yamlPass := add("password-yaml", "Pa55-"+g.s(alnum, 12), "")
	npm := add("npm-token", "npm_"+g.s(alnum, 36), "")
	gitlab := add("gitlab-pat", "glpat-"+g.s(urlb64, 20), "")
	files["deploy/values.yaml"] = fmt.Sprintf("database:\n  host: db.internal\n  password: %s\nregistry:\n  npm_token: \"%s\"\nci:\n  gitlab_token: %s\n", yamlPass, npm, gitlab)

	// JSON: a GCP service account key with \n-escaped PEM.
	saBody := g.pemBody(4)
	add("gcp-service-account-key", saBody[2], "")
	saSecret := add("gcp-oauth-client-secret", "GOCSPX-"+g.s(urlb64, 28), "")
	files["config/service-account.json"] = fmt.Sprintf(`{
  "type": "service_account",
  "project_id": "demo-project",
  "client_secret": "%s",
  "private_key": "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----\n",
  "client_email": "svc@demo-project.iam.gserviceaccount.com"
}
`, saSecret, strings.Join(saBody, `\n`))

	// TOML and INI.
	tomlSecret := add("secret-assignment", "s3cr3t-"+g.s(alnum, 24), "")
	azure := add("azure-storage-key", g.s(b64, 86)+"==", "")
	files["config/app.toml"] = fmt.Sprintf("[server]\nport = 8080\nsecret_key = %q\n\n[storage]\nconnection = \"DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=%s;EndpointSuffix=core.windows.net\"\n", tomlSecret, azure)
	iniPass := add("password-ini", g.s(alnum, 8)+"!9", "")
	pypi := add("pypi-token", "pypi-AgEIcHlwaS5vcmc"+g.s(urlb64, 60), "")
	files["config/db.ini"] = fmt.Sprintf("[database]\nuser = app\npassword = %s\n\n[upload]\npypi_password = %s\n", iniPass, pypi)

	// Private keys in their own files.
	rsaBody := g.pemBody(6)
	add("private-key-rsa", rsaBody[3], "")
	files["certs/server.key"] = "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(rsaBody, "\n") + "\n-----END RSA PRIVATE KEY-----\n"
	sshBody := g.pemBody(5)
	add("private-key-openssh", sshBody[1], "")
	files["deploy/id_ed25519"] = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Join(sshBody, "\n") + "\n-----END OPENSSH PRIVATE KEY-----\n"
	files["certs/README.md"] = "# Certificates\n\nThe server key lives in `server.key`.\n"

	// A notebook whose code cell holds an OpenAI key and a Hugging Face token.
	openai := add("openai-api-key", "sk-proj-"+g.s(urlb64, 24)+"T3BlbkFJ"+g.s(urlb64, 24), "")
	hf := add("huggingface-token", "hf_"+g.s(alnum, 34), "")
	nbPass := add("password-notebook", "nb-"+g.s(alnum, 12)+"7", "")
	files["notebooks/explore.ipynb"] = fmt.Sprintf(`{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Explore\n", "Load the data."]},
  {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
   "source": ["import openai\n", "openai.api_key = \"%s\"\n", "HF_TOKEN = \"%s\"\n", "db_password = \"%s\"\n", "def load(path):\n", "    return open(path).read()\n"]}
 ],
 "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`, openai, hf, nbPass)

	// A log with tokens in it.
	ghs := add("github-app-token", "ghs_"+g.s(alnum, 36), "")
	bearer := add("bearer-token", g.s(urlb64, 48), "")
	anthropic := add("anthropic-api-key", "sk-ant-api03-"+g.s(urlb64, 93)+"AA", "")
	files["logs/app.log"] = fmt.Sprintf("2026-11-24T00:00:01Z INFO start\n2026-11-24T00:00:02Z ERROR push failed for token=%s\n2026-11-24T00:00:03Z WARN retry with header Authorization: Bearer %s\n2026-11-24T00:00:04Z DEBUG anthropic key %s\n", ghs, bearer, anthropic)

	// Shell with a Telegram bot and a Vault token.
	tg := add("telegram-bot-token", g.s("123456789", 9)+":AA"+g.s(urlb64, 33), "")
	vault := add("hashicorp-vault-token", "hvs."+g.s(urlb64, 90), "")
	files["scripts/notify.sh"] = fmt.Sprintf("#!/bin/sh\n# notify posts a message.\nnotify() {\n  curl -s \"https://api.telegram.org/bot%s/sendMessage\" -d text=\"$1\"\n}\nexport VAULT_TOKEN=%s\n", tg, vault)

	// A plain module that imports the settings, so scope reaches them.
	files["app/main.py"] = "\"\"\"Entry point.\"\"\"\nfrom app.settings import connect, Client\n\n\ndef main():\n    \"\"\"Run.\"\"\"\n    return Client().call(connect())\n"
	files["app/__init__.py"] = ""
}

// Leaks returns the kinds of secrets whose needle appears in text.
func Leaks(text string, secrets []Secret) []string {
	var out []string
	for _, s := range secrets {
		if strings.Contains(text, s.Needle) {
			out = append(out, s.Kind)
		}
	}
	return out
}
