package redacttest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"math/big"
)

// Key material made from the seed: real Ed25519 and P-256 keys (their
// private scalars drawn from the seed), and RSA keys and certificates
// that have the DER structure of real ones around random numbers (Go
// makes no RSA key from a seed; a redactor reads the shape, not the
// mathematics).

func (g gen) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return b
}

// bigInt is a positive integer of bits bits, its top bit set.
func (g gen) bigInt(bits int) *big.Int {
	b := g.bytes(bits / 8)
	b[0] |= 0x80
	return new(big.Int).SetBytes(b)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic("redacttest: " + err.Error())
	}
	return v
}

// ed25519Key is an Ed25519 private key in PKCS#8 DER.
func (g gen) ed25519Key() []byte {
	return must(x509.MarshalPKCS8PrivateKey(ed25519.NewKeyFromSeed(g.bytes(ed25519.SeedSize))))
}

// ed25519Public is an Ed25519 public key in PKIX DER, and the key's
// public bytes.
func (g gen) ed25519Public() ([]byte, []byte) {
	pub := ed25519.NewKeyFromSeed(g.bytes(ed25519.SeedSize)).Public().(ed25519.PublicKey)
	return must(x509.MarshalPKIXPublicKey(pub)), pub
}

// ecKey is a P-256 private key; sec1 picks SEC1 DER, else PKCS#8.
func (g gen) ecKey(sec1 bool) ([]byte, *ecdsa.PrivateKey) {
	for {
		k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), g.bytes(32))
		if err != nil {
			continue // a scalar of the curve's order or more
		}
		if sec1 {
			return must(x509.MarshalECPrivateKey(k)), k
		}
		return must(x509.MarshalPKCS8PrivateKey(k)), k
	}
}

// rsaShape is the DER of a PKCS#1 RSA private key of 2048 bits.
type rsaShape struct {
	Version               int
	N                     *big.Int
	E                     int
	D, P, Q, Dp, Dq, Qinv *big.Int
}

func (g gen) rsaKey() []byte {
	return must(asn1.Marshal(rsaShape{0, g.bigInt(2048), 65537, g.bigInt(2048), g.bigInt(1024), g.bigInt(1024), g.bigInt(1024), g.bigInt(1024), g.bigInt(1024)}))
}

// rsaKeyPKCS8 is the same wrapped in PKCS#8.
func (g gen) rsaKeyPKCS8() []byte {
	return must(asn1.Marshal(struct {
		Version    int
		Algo       pkix.AlgorithmIdentifier
		PrivateKey []byte
	}{0, pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}, Parameters: asn1.NullRawValue}, g.rsaKey()}))
}

// rsaPublic is the DER of an RSA public key (PKIX).
func (g gen) rsaPublic() []byte {
	inner := must(asn1.Marshal(struct {
		N *big.Int
		E int
	}{g.bigInt(2048), 65537}))
	return must(asn1.Marshal(struct {
		Algo      pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}{pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}, Parameters: asn1.NullRawValue}, asn1.BitString{Bytes: inner, BitLength: 8 * len(inner)}}))
}

// certificate is the DER of a certificate: a SEQUENCE of the signed part,
// the algorithm and the signature.
func (g gen) certificate() []byte {
	return must(asn1.Marshal(struct {
		TBS struct {
			Serial *big.Int
			Body   []byte
		}
		Algo asn1.ObjectIdentifier
		Sig  asn1.BitString
	}{struct {
		Serial *big.Int
		Body   []byte
	}{g.bigInt(64), g.bytes(600)}, asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}, asn1.BitString{Bytes: g.bytes(72), BitLength: 576}}))
}

func pemOf(typ string, der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func std64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func std64s(s string) string { return std64([]byte(s)) }

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
