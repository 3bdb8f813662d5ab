package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// fakePassword is a password made when the test runs (none is written in
// the repository): letters, digits and a dot.
func fakePassword(r *rand.Rand) string {
	const a = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	b := []byte("Aa1.")
	for range 10 {
		b = append(b, a[r.IntN(len(a))])
	}
	r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return string(b)
}

// Each rule family of docs/redact.md redacts what it names (§ stands for
// a fresh password, and for where its marker goes).
func TestFamilies(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 2026))
	for _, tc := range []struct{ rule, path, text string }{
		{ruleDSN, "db.go", `sql.Open("mysql", "shop:§@tcp(db:3306)/shop")`},
		{ruleDSN, "c.yaml", "dsn: backup:§@unix(/run/mysqld.sock)/app\n"},
		{ruleDSN, "c.toml", `dsn = "root:§@/app"`},
		{ruleDSN, "o.py", `connect("scott/§@//ora:1521/ORCL")`},
		{ruleConnString, "a.json", `"Default": "Server=db;Database=shop;User Id=sa;Password=§;"`},
		{ruleConnString, "a.py", `pyodbc.connect("DRIVER={ODBC 18};SERVER=db;UID=sa;PWD=§")`},
		{ruleConnString, "a.cs", `"Data Source=db;User Id=app;Pwd={§};"`},
		{ruleConnString, "a.go", `"host=db user=app password=§ dbname=app"`},
		{ruleConnString, "A.java", `"jdbc:mysql://db/shop?user=app&password=§&ssl=true"`},
		{"connection-string", "a.py", `redis.from_url("redis://:§@cache:6379/0")`},
		{rulePgpass, ".pgpass", "db:5432:shop:app:§\n"},
		{ruleNetrc, ".netrc", "machine api.github.com login octo password §\n"},
		{ruleNetrc, "s.sh", "cat > ~/.netrc <<EOF\nmachine git.internal\n  login bot\n  password §\nEOF\n"},
		{ruleCLI, "d.sh", "curl -u deploy:§ https://x\n"},
		{ruleCLI, "Makefile", "up:\n\tcurl -s \\\n\t  --user ci:§ \\\n\t  https://x\n"},
		{ruleCLI, "b.sh", "mysqldump -uroot -p'§' shop\n"},
		{ruleCLI, "README.md", "mysql -uroot -p§ shop\n"},
		{ruleCLI, "b.sh", "sshpass -p § ssh x@h\n"},
		{ruleCLI, ".gitlab-ci.yml", "  - docker login -u ci -p § registry\n"},
		{ruleCLI, "b.sh", "redis-cli -a § ping\n"},
		{ruleCLI, "k.yaml", `args: ["--db-password", "§"]`},
		{ruleCLI, "w.sh", "wget --user=ci --password=§ https://x\n"},
		{ruleCLI, "c.sh", "keytool -list -storepass §\n"},
		{ruleCLI, "c.sh", "openssl pkcs12 -export -passout pass:§ -in x\n"},
		{ruleCLI, "c.sh", "ldapsearch -x -D cn=admin -w §\n"},
		{ruleCLI, "b.ps1", `ConvertTo-SecureString "§" -AsPlainText -Force`},
		{rulePassword, "b.sh", "PGPASSWORD=§ psql -h db\n"},
		{rulePassword, "x.go", `cmd := "PGPASSWORD=§ psql -h db"`},
		{rulePassword, "Dockerfile", "ENV DB_PASSWORD §\n"},
		{rulePassword, "Makefile", "DB_PASSWORD ?= §\n"},
		{rulePassword, "e.sh", "export DB_PASSWORD=§\n"},
		{rulePassword, "settings.xml", "<password>§</password>\n"},
		{rulePassword, "web.config", `<add key="SmtpPassword" value="§" />`},
		{rulePassword, "m.sql", "CREATE ROLE app WITH LOGIN PASSWORD '§';\n"},
		{rulePassword, "m.sql", "CREATE USER 'a'@'%' IDENTIFIED BY '§';\n"},
		{rulePassword, "redis.conf", "requirepass §\n"},
		{rulePassword, "redis.conf", "masterauth §\n"},
		{rulePassword, "s.py", `HMAC_PASSWORD = b"§"`},
		{rulePassword, "s.go", `Data: map[string][]byte{"password": []byte("§")}`},
		{rulePassword, "d.yaml", "env:\n- name: DB_PASSWORD\n  value: §\n"},
		{rulePassword, "a.service", "Environment=\"DB_PASSWORD=§\"\n"},
		{rulePassword, "wp-config.php", `define('DB_PASSWORD', '§');`},
		{rulePassword, "x_test.go", `t.Setenv("DB_PASSWORD", "§")`},
		{rulePassword, "a.py", `os.environ["DB_PASSWORD"] = "§"`},
		{rulePassword, "a.py", `requests.get(u, auth=("api", "§"))`},
		{rulePassword, "a.go", `req.SetBasicAuth("ci", "§")`},
		{rulePassword, "a.py", `server.login("me@x.io", "§")`},
		{ruleCLI, "r.sh", `echo "§" | docker login -u ci --password-stdin registry`},
		{ruleCLI, "b.sh", "bcp t out f -S s -U u -P §\n"},
	} {
		pw := fakePassword(r)
		text := strings.ReplaceAll(tc.text, "§", pw)
		want := strings.ReplaceAll(tc.text, "§", Mark(tc.rule))
		if strings.HasSuffix(tc.path, ".yaml") && strings.Contains(tc.text, ": §\n") {
			want = strings.ReplaceAll(tc.text, "§", `"`+Mark(tc.rule)+`"`)
		}
		if got, _ := Default().Text(tc.path, text); got != want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.rule, tc.path, got, want)
		}
	}
}

// The placeholders of each family are left alone.
func TestFamiliesLeave(t *testing.T) {
	for _, tc := range []struct{ path, text string }{
		{"README.md", "`user:password@tcp(localhost:3306)/db`, `root:@tcp(127.0.0.1:3306)/test`"},
		{"db.go", `fmt.Sprintf("%s:%s@tcp(%s)/%s", u, p, h, d)`},
		{"src/app.js", `import x from '@/components/x'`},
		{"a.json", `"Local": "Server=(localdb);Database=x;Trusted_Connection=True;"`},
		{"a.md", "Server=myServer;Database=myDb;User Id=myUser;Password=<password>;"},
		{"a.cs", `$"Server=x;User Id=app;Password={pw};"`},
		{"a.py", `f"host=db user=etl password={os.environ['PGPASS']}"`},
		{"sys.go", `// (["USER=go", "PWD=/tmp"])`},
		{"a.log", "login ok for etl (password=***)\n"},
		{"a.md", "The login page of the machine learning service has a password reset link.\n"},
		{"b.sh", `curl -u "$USER:$TOKEN" https://x` + "\ncurl -u user:password https://x\ndocker run -u 1000:1000 x\n"},
		{"b.sh", "mysql -u root -p shop\nmysql -p$MYSQL_ROOT_PASSWORD shop\nsshpass -e ssh x\n"},
		{"ci.yml", `echo "$P" | docker login -u ci --password-stdin ghcr.io`},
		{"Dockerfile", "ENV PASSWORD_FILE /run/secrets/db_password\n"},
		{"h.go", `      --password string   Password for basic authentication`},
		{"d.md", "--password ${DB_PASSWORD} --password PASSWORD --password <password>\n"},
		{"c.sh", "openssl rsa -passin env:KEY_PASS -in k\nkeytool -list -storepass changeit\n"},
		{"m.sql", "CREATE USER 'dev'@'localhost' IDENTIFIED BY '<password>';\n"},
		{"redis.conf", "# requirepass foobared\n"},
		{".env.example", "DB_PASSWORD=changeme\nSECRET_KEY=your-secret-key\nAPI_URL=${API_URL}\n"},
		{"users.go", `fileEtcPasswd = "/etc/passwd"`},
		{"x_test.go", `t.Setenv("DB_PASSWORD", pw)` + "\n" + `flag.String("password", "", "the password")`},
		{"a.py", `os.environ["DB_PASSWORD"] = getpass.getpass()`},
		{"r.sh", `echo "$TOKEN" | docker login -u ci --password-stdin registry`},
		{"a_test.go", `r.SetBasicAuth("Aladdin", "open sesame"); r.SetBasicAuth("My User", "My Pass")`},
		{"k.yaml", "kind: Secret\ndata:\n  username: c2hvcA==\n  password: Y2hhbmdlbWU=\n"},
		{"jwks.json", `{"keys": [{"kty": "RSA", "e": "AQAB", "n": "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw"}]}`},
	} {
		if got, c := Default().Text(tc.path, tc.text); got != tc.text {
			t.Errorf("%s %q redacted to %q (%v)", tc.path, tc.text, got, c)
		}
	}
}
