package redacttest

import (
	"fmt"
	"strings"
)

// The second part of the corpus: passwords with no shape of their own,
// planted inside the larger credentials real repositories hold them in
// (driver DSNs, key=value connection strings, .netrc and .pgpass files,
// command lines in scripts, Makefiles, CI files, Dockerfiles, docs and
// notebooks), key material wrapped in base64 (a kubeconfig, Kubernetes
// Secrets, Terraform, keys' DER in code, JSON Web Keys), and beside them
// the decoys people write where such secrets go: placeholders, variables,
// templates, public keys and certificates, flags without a value.

// planter plants secrets and decoys into a Set.
type planter struct {
	g   gen
	set *Set
}

// pw is a password: letters, digits and a punctuation mark, 14 bytes,
// with upper and lower case and a digit.
func (g gen) pw() string {
	for {
		p := g.s(alnum, 6) + string("-_.+~"[g.r.IntN(5)]) + g.s(alnum, 7)
		if strings.ContainsAny(p, "0123456789") && strings.ContainsAny(p, upperLetters) && strings.ContainsAny(p, "abcdefghijklmnopqrstuvwxyz") {
			return p
		}
	}
}

const upperLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// secret plants a contextual secret whose needle is the value.
func (p planter) secret(kind, value string) string { return p.secretNeedle(kind, value, value) }

func (p planter) secretNeedle(kind, value, needle string) string {
	p.set.Secrets = append(p.set.Secrets, Secret{Kind: kind, Value: value, Needle: needle, Contextual: true})
	return value
}

// pw plants a fresh password of kind.
func (p planter) pw(kind string) string { return p.secret(kind, p.g.pw()) }

func (p planter) decoy(kind, path, needle string) {
	if !strings.Contains(p.set.Files[path], needle) {
		panic(fmt.Sprintf("redacttest: decoy %s is not in %s", kind, path))
	}
	p.set.Decoys = append(p.set.Decoys, Decoy{Kind: kind, Path: path, Needle: needle})
}

// token plants a secret with a shape of its own.
func (p planter) token(kind, value string) string {
	p.set.Secrets = append(p.set.Secrets, Secret{Kind: kind, Value: value, Needle: value})
	return value
}

func (p planter) file(path, text string) {
	if _, ok := p.set.Files[path]; ok {
		panic("redacttest: two files at " + path)
	}
	p.set.Files[path] = text
}

// middle is the distinctive part of a long encoded secret.
func middle(s string) string { return s[len(s)/3 : len(s)/3+32] }

func credentials(g gen, set *Set) {
	p := planter{g, set}
	p.connectionStrings()
	p.commandLines()
	p.encodedKeys()
	p.assignments()
	p.calls()
}

// calls plants passwords passed to calls and pipes: define, Setenv,
// os.environ[…], setProperty, basic auth, logins, echo into --password-stdin.
func (p planter) calls() {
	p.file("wp-config.php", fmt.Sprintf("<?php\ndefine('DB_NAME', 'shop');\ndefine('DB_PASSWORD', '%s');\ndefine('AUTH_KEY', getenv('WP_AUTH_KEY'));\n", p.pw("php-define")))
	p.decoy("php-define-getenv", "wp-config.php", "define('AUTH_KEY', getenv('WP_AUTH_KEY'));")
	p.file("internal/store/db_test.go", fmt.Sprintf(`package store

import (
	"net/http"
	"testing"
)

func TestOpen(t *testing.T) {
	t.Setenv("DB_PASSWORD", %q)
	req, _ := http.NewRequest("GET", "https://artifacts.internal", nil)
	req.SetBasicAuth("ci", %q)
	t.Setenv("DB_USER", "shop")
}
`, p.pw("go-setenv"), p.pw("go-set-basic-auth")))
	p.file("app/alerts.py", fmt.Sprintf(`"""Alerts by mail and webhook."""
import getpass
import os
import smtplib

import requests

os.environ["SMTP_PASSWORD"] = "%s"
os.environ["DB_PASSWORD"] = getpass.getpass()


def send(msg):
    server = smtplib.SMTP_SSL("smtp.internal")
    server.login("alerts@shop.internal", "%s")
    requests.post("https://hooks.internal/alert", auth=("alerts", "%s"), json=msg)
`, p.pw("python-environ-index"), p.pw("python-smtp-login"), p.pw("python-requests-auth")))
	p.decoy("python-environ-getpass", "app/alerts.py", `os.environ["DB_PASSWORD"] = getpass.getpass()`)
	p.file("src/main/java/shop/Tls.java", fmt.Sprintf("package shop;\n\nfinal class Tls {\n    static void init() {\n        System.setProperty(\"javax.net.ssl.keyStorePassword\", %q);\n        System.setProperty(\"javax.net.ssl.keyStore\", \"/etc/shop/keystore.jks\");\n    }\n}\n", p.pw("java-set-property")))
	p.decoy("java-keystore-path", "src/main/java/shop/Tls.java", `"javax.net.ssl.keyStore", "/etc/shop/keystore.jks"`)
	p.file("scripts/release.sh", fmt.Sprintf(`#!/bin/sh
echo "%s" | docker login -u ci --password-stdin registry.internal
echo "$REGISTRY_TOKEN" | docker login -u ci --password-stdin ghcr.io
bcp shop.dbo.orders out orders.dat -S sql.internal -U etl -P %s -c
`, p.pw("echo-password-stdin"), p.pw("bcp-password")))
	p.decoy("echo-variable-password-stdin", "scripts/release.sh", `echo "$REGISTRY_TOKEN" | docker login`)
}

// connectionStrings plants DSNs, key=value connection strings and URLs in
// code and config.
func (p planter) connectionStrings() {
	// Go: the MySQL driver's DSNs, libpq's key=value string, a Secret in code.
	p.file("internal/store/db.go", fmt.Sprintf(`// Package store opens the shop's databases.
package store

import (
	"database/sql"
	"fmt"
)

const backupDSN = "backup:%s@unix(/var/run/mysqld/mysqld.sock)/shop"

// Open opens the orders database.
func Open() (*sql.DB, error) {
	return sql.Open("mysql", "shop:%s@tcp(db.internal:3306)/shop?parseTime=true")
}

// Reports opens the reporting replica.
func Reports() (*sql.DB, error) {
	return sql.Open("pgx", "host=pg.internal port=5432 user=reports password=%s dbname=reports sslmode=require")
}

// Local opens a database from its parts; tests use a local server.
func Local(user, pass, host, db string) (*sql.DB, error) {
	if host == "" {
		return sql.Open("mysql", "root:@tcp(127.0.0.1:3306)/test")
	}
	return sql.Open("mysql", fmt.Sprintf("%%s:%%s@tcp(%%s)/%%s", user, pass, host, db))
}

var cloudDSN = "svc:%s@cloudsql(shop-prod:europe-west1:orders)/orders"
`, p.pw("dsn-unix-go"), p.pw("dsn-tcp-go"), p.pw("libpq-conninfo-go"), p.pw("dsn-cloudsql-go")))
	p.decoy("dsn-empty-password", "internal/store/db.go", "root:@tcp(127.0.0.1:3306)/test")
	p.decoy("dsn-format-verbs", "internal/store/db.go", `"%s:%s@tcp(%s)/%s"`)

	// YAML: Rails-style config with a DSN, a Redis URL with no user, ERB.
	p.file("config/database.yml", fmt.Sprintf(`production:
  adapter: mysql2
  database: shop
  username: rails
  password: <%%= ENV['DATABASE_PASSWORD'] %%>
  replica_dsn: replica:%s@tcp(db-replica.internal:3306)/shop
  cache_url: redis://:%s@cache.internal:6379/0
  queue_url: amqp://worker:%s@mq.internal:5672/shop
development:
  url: mysql2://rails:${DEV_DB_PASSWORD}@localhost/shop_dev
`, p.pw("dsn-tcp-yaml"), p.pw("redis-url-no-user"), p.pw("amqp-url")))
	p.decoy("erb-password", "config/database.yml", "password: <%= ENV['DATABASE_PASSWORD'] %>")
	p.decoy("url-variable-password", "config/database.yml", "rails:${DEV_DB_PASSWORD}@localhost")

	// .NET: ADO.NET in appsettings.json, ODBC braces and Pwd in C#, web.config.
	p.file("appsettings.json", fmt.Sprintf(`{
  "ConnectionStrings": {
    "Default": "Server=tcp:shop.database.windows.net,1433;Initial Catalog=shop;User ID=shopadmin;Password=%s;Encrypt=True;",
    "Local": "Server=(localdb)\\mssqllocaldb;Database=shop;Trusted_Connection=True;",
    "Docs": "Server=myServer;Database=myDb;User Id=myUser;Password=<your-password>;"
  },
  "Logging": { "LogLevel": { "Default": "Information" } }
}
`, p.pw("ado-net-json")))
	p.decoy("conn-string-no-password", "appsettings.json", "Trusted_Connection=True;")
	p.decoy("conn-string-angle-placeholder", "appsettings.json", "Password=<your-password>;")
	p.file("src/Data/Db.cs", fmt.Sprintf(`namespace Shop.Data;

public static class Db
{
    public const string Orders = "Data Source=sql.internal;User Id=orders;Pwd={%s};";
    public const string Audit = "Driver={ODBC Driver 18 for SQL Server};Server=audit.internal;Uid=audit;PWD=%s;";
    public static string For(string pw) => $"Server=x;User Id=app;Password={pw};";
}
`, p.pw("odbc-braces-cs"), p.pw("odbc-pwd-cs")))
	p.decoy("conn-string-interpolated", "src/Data/Db.cs", "Password={pw};")
	p.file("web.config", fmt.Sprintf(`<?xml version="1.0"?>
<configuration>
  <connectionStrings>
    <add name="Shop" connectionString="Server=sql.internal;Database=shop;User Id=web;Password=%s;" providerName="System.Data.SqlClient" />
  </connectionStrings>
  <appSettings>
    <add key="SmtpPassword" value="%s" />
    <add key="SmtpHost" value="smtp.internal" />
  </appSettings>
</configuration>
`, p.pw("ado-net-web-config"), p.pw("app-settings-value")))

	// Python: pyodbc, Oracle's easy connect, psycopg2's conninfo.
	p.file("reports/export.py", fmt.Sprintf(`"""Exports the monthly report."""
import os

import cx_Oracle
import psycopg2
import pyodbc


def sqlserver():
    return pyodbc.connect("DRIVER={ODBC Driver 18 for SQL Server};SERVER=sql.internal;DATABASE=reports;UID=etl;PWD=%s")


def oracle():
    return cx_Oracle.connect("etl/%s@//ora.internal:1521/REPORTS")


def postgres():
    return psycopg2.connect("host=pg.internal dbname=reports user=etl password=%s")


def from_env():
    return psycopg2.connect(f"host=pg.internal user=etl password={os.environ['PGPASS']}")
`, p.pw("odbc-python"), p.pw("oracle-ezconnect"), p.pw("libpq-conninfo-python")))
	p.decoy("conninfo-fstring", "reports/export.py", "password={os.environ['PGPASS']}")

	// Java: JDBC URLs in properties and in code.
	p.file("src/main/resources/application.properties", fmt.Sprintf(`spring.datasource.url=jdbc:sqlserver://sql.internal:1433;databaseName=shop;user=shop;password=%s;encrypt=true
spring.datasource.hikari.maximum-pool-size=10
spring.datasource.password=${DB_PASSWORD}
`, p.pw("jdbc-sqlserver-properties")))
	p.decoy("properties-variable", "src/main/resources/application.properties", "spring.datasource.password=${DB_PASSWORD}")
	p.file("src/main/java/shop/Dao.java", fmt.Sprintf(`package shop;

import java.sql.Connection;
import java.sql.DriverManager;

/** Dao reads orders. */
public class Dao {
    static final String URL = "jdbc:mysql://db.internal:3306/shop?user=shop&password=%s&useSSL=true";

    Connection open() throws Exception {
        return DriverManager.getConnection(URL);
    }
}
`, p.pw("jdbc-query-java")))

	// .pgpass and a log.
	p.file(".pgpass", fmt.Sprintf("# hostname:port:database:username:password\npg.internal:5432:reports:etl:%s\n*:*:*:readonly:%s\n", p.pw("pgpass-line"), p.pw("pgpass-wildcard")))
	p.file("logs/worker.log", fmt.Sprintf(`2026-11-24T10:00:00Z INFO worker start
2026-11-24T10:00:01Z DEBUG connecting dsn=etl:%s@tcp(db.internal:3306)/etl
2026-11-24T10:00:02Z DEBUG conn "Server=sql.internal;User Id=sa;Password=%s;"
2026-11-24T10:00:03Z INFO exec: sshpass -p %s rsync -a out/ backup@nas:/srv
2026-11-24T10:00:04Z INFO login ok for etl (password=***)
`, p.pw("dsn-log"), p.pw("ado-net-log"), p.pw("sshpass-log")))
	p.decoy("masked-password-log", "logs/worker.log", "(password=***)")
}

// commandLines plants credentials on command lines: scripts, Makefiles,
// CI, Dockerfiles, unit files, docs, notebooks.
func (p planter) commandLines() {
	g := p.g
	p.file("scripts/bootstrap.sh", fmt.Sprintf(`#!/usr/bin/env bash
# bootstrap sets up a build host.
set -euo pipefail
mkdir -p /srv/build
sort -u hosts.txt > "$TMPDIR/hosts"

cat > ~/.netrc <<EOF
machine git.internal
  login builder
  password %s
EOF

curl -fsS -u deploy:%s https://artifacts.internal/api/upload -T build.tgz
curl -fsS -u "$ARTIFACT_USER:$ARTIFACT_TOKEN" https://artifacts.internal/api/ping
export DB_PASSWORD=%s
PGPASSWORD=%s psql -h pg.internal -U etl reports -c 'select 1'
mysqldump -uroot -p'%s' shop > backup/shop.sql
sshpass -p '%s' ssh deploy@web1.internal uptime
sshpass -e ssh deploy@web2.internal uptime
redis-cli -h cache.internal -a %s ping
docker run -u 1000:1000 --rm builder make
mysql -u root -p shop
wget --user=ci --password=%s https://artifacts.internal/tools.tgz
`, p.pw("netrc-heredoc"), p.pw("curl-user-colon"), p.pw("export-unquoted-shell"), p.pw("pgpassword-env-prefix"),
		p.pw("mysqldump-quoted"), p.pw("sshpass-quoted"), p.pw("redis-cli-auth"), p.pw("wget-password-option")))
	p.decoy("curl-variables", "scripts/bootstrap.sh", `-u "$ARTIFACT_USER:$ARTIFACT_TOKEN"`)
	p.decoy("docker-uid-gid", "scripts/bootstrap.sh", "-u 1000:1000")
	p.decoy("mysql-prompt", "scripts/bootstrap.sh", "mysql -u root -p shop")
	p.decoy("sshpass-env", "scripts/bootstrap.sh", "sshpass -e ssh")

	p.file("Makefile", fmt.Sprintf(`DB_PASSWORD ?= %s
REGISTRY := registry.internal

load:
	mysql -u root -p%s shop < dump.sql

upload:
	curl -s \
	  --user ci:%s \
	  -T dist.tgz https://artifacts.internal/upload

restore:
	mysql -u root -p$(DB_PASSWORD) shop < dump.sql
`, p.pw("makefile-conditional-assign"), p.pw("mysql-attached-makefile"), p.pw("curl-continued-line")))
	p.decoy("make-variable-password", "Makefile", "-p$(DB_PASSWORD)")

	p.file(".gitlab-ci.yml", fmt.Sprintf(`stages: [build, test]

build:
  stage: build
  script:
    - docker login -u ci -p %s registry.internal
    - echo "$CI_REGISTRY_PASSWORD" | docker login -u "$CI_REGISTRY_USER" --password-stdin "$CI_REGISTRY"
    - docker build -t registry.internal/shop .

test:
  stage: test
  script:
    - MYSQL_PWD=%s mysql -h db -u ci shop_test < schema.sql
    - go test ./...
`, p.pw("docker-login-ci"), p.pw("mysql-pwd-env-ci")))
	p.decoy("password-stdin", ".gitlab-ci.yml", `--password-stdin "$CI_REGISTRY"`)

	p.file("Dockerfile", fmt.Sprintf(`FROM golang:1.26 AS build
ENV DB_PASSWORD %s
ENV PASSWORD_FILE /run/secrets/db_password
ARG NPM_TOKEN=%s
RUN echo "machine git.internal login builder password %s" > ~/.netrc
RUN go build -o /app ./cmd/app
`, p.pw("dockerfile-env-legacy"), p.token("npm-token-build-arg", "npm_"+g.s(alnum, 36)), p.pw("netrc-dockerfile-echo")))
	p.decoy("password-file-path", "Dockerfile", "PASSWORD_FILE /run/secrets/db_password")

	p.file(".netrc", fmt.Sprintf("machine api.github.com login octocat password %s\nmachine registry.internal\n  login ci\n  password %s\n", p.pw("netrc-one-line"), p.pw("netrc-multi-line")))

	p.file("scripts/certs.sh", fmt.Sprintf(`#!/bin/sh
openssl pkcs12 -export -in tls.crt -inkey tls.key -passout pass:%s -out tls.p12
openssl rsa -in enc.key -passin env:KEY_PASS -out plain.key
keytool -importkeystore -srckeystore tls.p12 -destkeystore app.jks -deststorepass %s -srcstorepass %s
keytool -list -keystore cacerts -storepass changeit
`, p.pw("openssl-pass-arg"), p.pw("keytool-deststorepass"), p.pw("keytool-srcstorepass")))
	p.decoy("openssl-env-pass", "scripts/certs.sh", "-passin env:KEY_PASS")
	p.decoy("keytool-default-changeit", "scripts/certs.sh", "-storepass changeit")

	p.file("scripts/mount.sh", fmt.Sprintf(`#!/bin/sh
smbclient //fs.internal/share -U svc%%%s -c 'ls'
ldapsearch -x -H ldap://ldap.internal -D "cn=admin,dc=shop,dc=internal" -w %s "(uid=*)"
lftp -u deploy,%s sftp://files.internal
htpasswd -b -c /etc/nginx/.htpasswd admin %s
`, p.pw("smbclient-user-percent"), p.pw("ldapsearch-bind-password"), p.pw("lftp-user-comma"), p.pw("htpasswd-batch")))

	p.file("deploy/app.service", fmt.Sprintf(`[Unit]
Description=shop
[Service]
Environment="DB_PASSWORD=%s"
Environment="DB_HOST=db.internal"
ExecStart=/usr/local/bin/shop --admin-token %s
`, p.pw("systemd-environment"), p.secret("cli-token-option", "t0k"+g.s(alnum, 29))))

	p.file("scripts/backup.ps1", fmt.Sprintf(`$user = "backup"
$secure = ConvertTo-SecureString "%s" -AsPlainText -Force
$cred = New-Object System.Management.Automation.PSCredential($user, $secure)
$fromVault = ConvertTo-SecureString $env:BACKUP_PASSWORD -AsPlainText -Force
`, p.pw("powershell-securestring")))
	p.decoy("powershell-env", "scripts/backup.ps1", "ConvertTo-SecureString $env:BACKUP_PASSWORD")

	p.file("docs/setup.md", fmt.Sprintf("# Setup\n\nLoad the schema:\n\n```sh\nmysql -h db.internal -uroot -p%s shop < schema.sql\nredis-cli -a %s flushall\n```\n\n"+
		"Connect with `user:password@tcp(localhost:3306)/db`, or set `DATABASE_URL=postgres://user:password@localhost/db`.\n"+
		"In SQL Server use `Server=myServer;Database=myDb;User Id=myUser;Password=<password>;`.\n"+
		"Pass credentials with `curl -u user:password https://api.internal` or `--password ${DB_PASSWORD}`.\n\n"+
		"```text\n      --password string   Password for the database user\n      --token string      Bearer token\n```\n\n"+
		"The admin password shows as `***` in the UI. The login page of the machine learning service has a password reset link.\n",
		p.pw("mysql-attached-docs"), p.pw("redis-cli-docs")))
	p.decoy("dsn-docs-placeholder", "docs/setup.md", "user:password@tcp(localhost:3306)/db")
	p.decoy("url-docs-placeholder", "docs/setup.md", "postgres://user:password@localhost/db")
	p.decoy("conn-string-docs-placeholder", "docs/setup.md", "Password=<password>;")
	p.decoy("curl-docs-placeholder", "docs/setup.md", "curl -u user:password")
	p.decoy("option-variable", "docs/setup.md", "--password ${DB_PASSWORD}")
	p.decoy("option-help-text", "docs/setup.md", "--password string   Password for the database user")
	p.decoy("masked-asterisks", "docs/setup.md", "shows as `***`")
	p.decoy("prose-machine-login-password", "docs/setup.md", "machine learning service has a password reset link")

	// A notebook whose cells run a command and connect with a conninfo.
	p.file("notebooks/db.ipynb", fmt.Sprintf(`{
 "cells": [
  {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
   "source": ["!mysql -h db.internal -uetl -p%s etl < load.sql\n", "import psycopg2\n", "conn = psycopg2.connect(\"host=pg.internal user=etl password=%s dbname=etl\")\n", "dsn = \"etl:%s@tcp(db.internal:3306)/etl\"\n"]}
 ],
 "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`, p.pw("mysql-notebook-shell"), p.pw("libpq-notebook"), p.pw("dsn-notebook")))

	p.file("docker-compose.yml", fmt.Sprintf(`services:
  db:
    image: mysql:8
    environment:
      - MYSQL_ROOT_PASSWORD=%s
      - MYSQL_PASSWORD=${MYSQL_PASSWORD}
  cache:
    image: redis:7
    command: ["redis-server", "--requirepass", "%s"]
`, p.pw("compose-env-list"), p.pw("compose-command-list")))
	p.decoy("compose-variable", "docker-compose.yml", "MYSQL_PASSWORD=${MYSQL_PASSWORD}")
}

// encodedKeys plants key material and passwords wrapped in base64.
func (p planter) encodedKeys() {
	g := p.g
	// A kubeconfig: the client key in base64 PEM; the CA and the client
	// certificate are public.
	clientKey := std64s(pemOf("RSA PRIVATE KEY", g.rsaKey()))
	ca := std64s(pemOf("CERTIFICATE", g.certificate()))
	cert := std64s(pemOf("CERTIFICATE", g.certificate()))
	p.file("deploy/kubeconfig", fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: %s
    server: https://k8s.internal:6443
  name: prod
users:
- name: admin
  user:
    client-certificate-data: %s
    client-key-data: %s
- name: ci
  user:
    password: %s
    username: ci
contexts:
- context: {cluster: prod, user: admin}
  name: prod
current-context: prod
`, ca, cert, p.secretNeedle("kubeconfig-client-key-data", clientKey, middle(clientKey)), p.pw("kubeconfig-user-password")))
	p.decoy("kubeconfig-ca-data", "deploy/kubeconfig", middle(ca))
	p.decoy("kubeconfig-client-certificate", "deploy/kubeconfig", middle(cert))

	// A Secret in YAML: a password and a TLS key in data, a token in
	// stringData; the user name, the CA and a placeholder are not secret.
	ecDER, _ := g.ecKey(true)
	tlsKey := std64s(pemOf("EC PRIVATE KEY", ecDER))
	dbPass := std64s(g.pw())
	checksum := std64(g.bytes(24))
	p.file("deploy/k8s/db-secret.yaml", fmt.Sprintf(`apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
type: Opaque
data:
  username: %s
  password: %s
  tls.key: %s
  ca.crt: %s
  admin-password: %s
stringData:
  api-token: %s
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: db-config
data:
  host: db.internal
  checksum: %s
`, std64s("shop"), p.secretNeedle("k8s-secret-data-password", dbPass, dbPass),
		p.secretNeedle("k8s-secret-data-tls-key", tlsKey, middle(tlsKey)), ca, std64s("changeme"),
		p.secret("k8s-secret-string-data", "tok-"+g.s(alnum, 8)+g.s("0123456789", 4)+g.s(alnum, 16)), checksum))
	p.decoy("k8s-secret-username", "deploy/k8s/db-secret.yaml", "username: "+std64s("shop"))
	p.decoy("k8s-secret-ca", "deploy/k8s/db-secret.yaml", "ca.crt: "+ca)
	p.decoy("k8s-secret-placeholder", "deploy/k8s/db-secret.yaml", "admin-password: "+std64s("changeme"))
	p.decoy("configmap-base64", "deploy/k8s/db-secret.yaml", "checksum: "+checksum)

	// A registry Secret in JSON: .dockerconfigjson decodes to a Docker
	// config whose auth is user:password.
	regPass := g.pw()
	dockercfg := std64s(fmt.Sprintf(`{"auths":{"registry.internal":{"username":"ci","password":"%s","auth":"%s"}}}`, regPass, std64s("ci:"+regPass)))
	p.file("deploy/k8s/registry-secret.json", fmt.Sprintf(`{
  "apiVersion": "v1",
  "kind": "Secret",
  "metadata": {"name": "registry", "namespace": "shop"},
  "type": "kubernetes.io/dockerconfigjson",
  "data": {
    ".dockerconfigjson": "%s"
  }
}
`, p.secretNeedle("k8s-dockerconfigjson", dockercfg, middle(dockercfg))))

	// Docker's and npm's own configs: auth is base64 of user:password.
	dockerAuth := std64s("deploy:" + g.pw())
	p.file("docker/config.json", fmt.Sprintf("{\n  \"auths\": {\n    \"registry.internal\": {\"auth\": \"%s\"}\n  },\n  \"credsStore\": \"desktop\"\n}\n", p.secret("docker-config-auth", dockerAuth)))
	npmAuth := std64s("ci:" + g.pw())
	p.file(".npmrc", fmt.Sprintf("registry=https://npm.internal/\n_auth=%s\nalways-auth=true\n", p.secret("npmrc-legacy-auth", npmAuth)))

	// Terraform: a private key as base64 PEM.
	tfKey := std64s(pemOf("PRIVATE KEY", g.ed25519Key()))
	p.file("terraform/main.tf", fmt.Sprintf(`resource "tls_self_signed_cert" "api" {
  private_key_pem = base64decode("%s")
  validity_period_hours = 8760
}
`, p.secretNeedle("terraform-base64-pem", tfKey, middle(tfKey))))

	// Keys' DER in base64 in code, no PEM lines: PKCS#8 RSA in Java, SEC1
	// EC in C#, PKCS#8 Ed25519 in a Go test; a public key beside them.
	rsa8 := std64(g.rsaKeyPKCS8())
	ec1, _ := g.ecKey(true)
	ed := std64(g.ed25519Key())
	rsaPub := std64(g.rsaPublic())
	edPub, _ := g.ed25519Public()
	p.file("src/main/java/shop/Keys.java", fmt.Sprintf(`package shop;

/** Keys signs receipts. */
final class Keys {
    static final String SIGNER = "%s";
    static final String VERIFIER = "%s";
}
`, p.secretNeedle("der-pkcs8-rsa-java", rsa8, middle(rsa8)), rsaPub))
	p.decoy("der-public-key-rsa", "src/main/java/shop/Keys.java", middle(rsaPub))
	ec1s := std64(ec1)
	p.file("src/Crypto/Ec.cs", fmt.Sprintf("namespace Shop.Crypto;\n\npublic static class Ec\n{\n    public const string Key = \"%s\";\n}\n", p.secretNeedle("der-sec1-ec-cs", ec1s, ec1s[16:48])))
	edPubs := std64(edPub)
	p.file("internal/sign/sign_test.go", fmt.Sprintf("package sign\n\nvar testKey = %q\n\nvar testPub = %q\n", p.secretNeedle("der-pkcs8-ed25519-go", ed, ed[16:]), edPubs))
	p.decoy("der-public-key-ed25519", "internal/sign/sign_test.go", edPubs)

	// JSON Web Keys: a private EC key and a symmetric key; a public set.
	_, ecPriv := g.ecKey(false)
	d := b64url(ecPriv.D.FillBytes(make([]byte, 32)))
	x := b64url(ecPriv.X.FillBytes(make([]byte, 32)))
	y := b64url(ecPriv.Y.FillBytes(make([]byte, 32)))
	k := b64url(g.bytes(32))
	p.file("config/jwks.json", fmt.Sprintf(`{"keys": [
  {"kty": "EC", "crv": "P-256", "kid": "sig-1", "use": "sig", "x": "%s", "y": "%s", "d": "%s"},
  {"kty": "oct", "kid": "hmac-1", "alg": "HS256", "k": "%s"}
]}
`, x, y, p.secret("jwk-ec-private", d), p.secret("jwk-oct-symmetric", k)))
	p.decoy("jwk-public-coordinate", "config/jwks.json", x)
	n := b64url(g.bytes(256))
	p.file("config/public-jwks.json", fmt.Sprintf(`{"keys": [{"kty": "RSA", "kid": "sig-2", "use": "sig", "alg": "RS256", "e": "AQAB", "n": "%s"}]}
`, n))
	p.decoy("jwk-public-rsa", "config/public-jwks.json", n)
}

// assignments plants passwords in the assignment forms beyond key = "v":
// XML, SQL, Kubernetes env entries, Python bytes, Go []byte, config
// directives, inventories, example files.
func (p planter) assignments() {
	g := p.g
	p.file("config/settings.xml", fmt.Sprintf("<settings>\n  <servers>\n    <server>\n      <id>internal</id>\n      <username>deployer</username>\n      <password>%s</password>\n    </server>\n  </servers>\n</settings>\n", p.pw("maven-settings-xml-element")))
	p.file("migrations/001_users.sql", fmt.Sprintf(`CREATE ROLE reporting WITH LOGIN PASSWORD '%s';
CREATE USER 'replica'@'%%' IDENTIFIED BY '%s';
CREATE USER 'app'@'%%' IDENTIFIED WITH mysql_native_password BY '%s';
-- CREATE USER 'dev'@'localhost' IDENTIFIED BY '<password>';
`, p.pw("sql-create-role-password"), p.pw("sql-identified-by"), p.pw("sql-identified-with-by")))
	p.decoy("sql-placeholder", "migrations/001_users.sql", "IDENTIFIED BY '<password>'")
	p.file("deploy/redis.conf", fmt.Sprintf("bind 0.0.0.0\n# requirepass foobared\nrequirepass %s\nmasterauth %s\n", p.pw("redis-conf-requirepass"), p.pw("redis-conf-masterauth")))
	p.decoy("redis-conf-comment", "deploy/redis.conf", "# requirepass foobared")
	p.file("deploy/k8s/api.yaml", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    spec:
      containers:
      - name: api
        image: registry.internal/api:1.4
        args: ["--db-password", "%s", "--log-level", "info"]
        command:
        - /api
        - --admin-password=%s
        env:
        - name: DB_PASSWORD
          value: %s
        - name: DB_HOST
          value: db.internal
        - name: API_TOKEN
          valueFrom:
            secretKeyRef: {name: api, key: token}
`, p.pw("k8s-args-list-option"), p.pw("k8s-command-option-equals"), p.pw("k8s-env-name-value")))
	p.file("app/secrets.py", fmt.Sprintf("\"\"\"Secrets of the app.\"\"\"\n\nHMAC_PASSWORD = b%q\nFERNET_SECRET_KEY = rb%q\n", p.pw("python-bytes-literal"), p.secret("python-raw-bytes-secret", g.s(alnum, 10)+"9"+g.s(alnum, 21))))
	p.file("internal/k8s/secret.go", fmt.Sprintf(`package k8s

import corev1 "k8s.io/api/core/v1"

func dbSecret() *corev1.Secret {
	return &corev1.Secret{
		Data: map[string][]byte{"password": []byte(%q), "username": []byte("shop")},
	}
}
`, p.pw("go-byte-slice-secret")))
	p.file("ansible/inventory.ini", fmt.Sprintf("[db]\ndb1 ansible_host=10.0.0.5 ansible_user=deploy ansible_password=%s ansible_become_pass=%s\n", p.pw("ansible-inventory-password"), p.pw("ansible-become-pass")))
	p.file(".env.example", "# copy to .env\nDB_PASSWORD=changeme\nSECRET_KEY=your-secret-key-here\nAPI_URL=${API_URL}\nSTRIPE_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\n")
	p.decoy("env-example-changeme", ".env.example", "DB_PASSWORD=changeme")
	p.decoy("env-example-your", ".env.example", "SECRET_KEY=your-secret-key-here")
	p.decoy("env-example-variable", ".env.example", "API_URL=${API_URL}")
	p.decoy("env-example-xxx", ".env.example", "sk_test_xxxxxxxxxxxxxxxxxxxxxxxx")
}
