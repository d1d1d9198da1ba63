#include "web/web_push.hpp"

#include <array>
#include <cerrno>

#include <sys/stat.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include "store/fs_util.hpp"
#include "store/journal.hpp"
#include "transport/jsonrpc.hpp"
#include "web/web_token.hpp"

namespace askhost::web::push {

namespace {

constexpr std::size_t kSaltBytes = 16;
constexpr std::size_t kPointBytes = 65;
constexpr std::size_t kScalarBytes = 32;
constexpr std::size_t kAuthBytes = 16;
constexpr std::size_t kTagBytes = 16;
constexpr std::size_t kHeaderBytes = kSaltBytes + 4 + 1 + kPointBytes;  // 86
constexpr std::size_t kMaxKeyFile = 4096;

template <class T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, Deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using GroupPtr = std::unique_ptr<EC_GROUP, Deleter<EC_GROUP, EC_GROUP_free>>;
using PointPtr = std::unique_ptr<EC_POINT, Deleter<EC_POINT, EC_POINT_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamsPtr = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;
using SigPtr = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;

const unsigned char* bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

std::string hmac_sha256(std::string_view key, std::string_view message) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes(message), message.size(), mac.data(), &len);
    return {reinterpret_cast<const char*>(mac.data()), len};
}

// HKDF-SHA-256 (RFC 5869) for at most one block of output, all RFC 8291 needs.
std::string hkdf(std::string_view salt, std::string_view ikm, std::string_view info, std::size_t length) {
    const std::string prk = hmac_sha256(salt, ikm);
    std::string t = hmac_sha256(prk, std::string(info) + '\x01');
    t.resize(length);
    return t;
}

// A P-256 key from its parts: `pub` alone (a peer's), or `priv` and `pub` (a pair).
PkeyPtr make_key(std::string_view pub, std::string_view priv) {
    ParamBldPtr bld(OSSL_PARAM_BLD_new());
    BnPtr d;
    if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1 ||
        OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, pub.data(), pub.size()) != 1)
        return nullptr;
    if (!priv.empty()) {
        d.reset(BN_bin2bn(bytes(priv), static_cast<int>(priv.size()), nullptr));
        if (!d || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, d.get()) != 1) return nullptr;
    }
    ParamsPtr params(OSSL_PARAM_BLD_to_param(bld.get()));
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    EVP_PKEY* out = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &out, priv.empty() ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR, params.get()) != 1)
        return nullptr;
    PkeyPtr key(out);
    // A public key must be a point of the curve (an invalid one would leak the private key in ECDH).
    PkeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
    if (!check || EVP_PKEY_public_check(check.get()) != 1) return nullptr;
    return key;
}

// The public point of a private scalar (the key pair made from a fixed scalar, for the tests).
std::optional<std::string> point_of(std::string_view priv) {
    GroupPtr group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1));
    BnPtr d(BN_bin2bn(bytes(priv), static_cast<int>(priv.size()), nullptr));
    if (!group || !d) return std::nullopt;
    PointPtr p(EC_POINT_new(group.get()));
    if (!p || EC_POINT_mul(group.get(), p.get(), d.get(), nullptr, nullptr, nullptr) != 1) return std::nullopt;
    std::string out(kPointBytes, '\0');
    if (EC_POINT_point2oct(group.get(), p.get(), POINT_CONVERSION_UNCOMPRESSED,
                           reinterpret_cast<unsigned char*>(out.data()), out.size(), nullptr) != kPointBytes)
        return std::nullopt;
    return out;
}

PkeyPtr new_p256() { return PkeyPtr(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")); }

std::string public_point(EVP_PKEY* key) {
    std::string out(kPointBytes, '\0');
    std::size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, reinterpret_cast<unsigned char*>(out.data()),
                                        out.size(), &len) != 1 ||
        len != kPointBytes)
        return {};
    return out;
}

std::optional<std::string> ecdh(EVP_PKEY* own, EVP_PKEY* peer) {
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, own, nullptr));
    std::size_t len = 0;
    if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), peer) != 1 ||
        EVP_PKEY_derive(ctx.get(), nullptr, &len) != 1)
        return std::nullopt;
    std::string secret(len, '\0');
    if (EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(secret.data()), &len) != 1) return std::nullopt;
    secret.resize(len);
    return secret;
}

struct ContentKeys {
    std::string cek, nonce;
};

// RFC 8291 section 3.4, then RFC 8188 section 2.2 and 2.3: the content key and nonce.
ContentKeys derive(std::string_view ecdh_secret, std::string_view auth, std::string_view ua_public,
                   std::string_view as_public, std::string_view salt) {
    const std::string key_info = std::string("WebPush: info") + '\0' + std::string(ua_public) + std::string(as_public);
    const std::string ikm = hkdf(auth, ecdh_secret, key_info, 32);
    return {hkdf(salt, ikm, std::string("Content-Encoding: aes128gcm") + '\0', 16),
            hkdf(salt, ikm, std::string("Content-Encoding: nonce") + '\0', 12)};
}

Result<std::string> seal(const Subscription& to, std::string_view plaintext, std::size_t padding, std::string_view salt,
                         EVP_PKEY* as_key) {
    if (plaintext.size() + padding > kMaxPlaintext)
        return Error::failed("a push message of " + std::to_string(plaintext.size() + padding) + " bytes: at most " +
                             std::to_string(kMaxPlaintext));
    if (to.p256dh.size() != kPointBytes || to.auth.size() != kAuthBytes)
        return Error::failed("the subscription's keys are not a P-256 point and a 16-byte secret");
    PkeyPtr peer = make_key(to.p256dh, {});
    if (!peer) return Error::failed("the subscription's p256dh is not a point of P-256");
    const std::string as_public = public_point(as_key);
    auto secret = ecdh(as_key, peer.get());
    if (!secret || as_public.empty()) return Error::failed("ECDH with the subscription's key failed");
    const ContentKeys k = derive(*secret, to.auth, to.p256dh, as_public, salt);

    std::string body(salt);
    const std::uint32_t rs = kRecordSize;
    for (int shift = 24; shift >= 0; shift -= 8) body.push_back(static_cast<char>((rs >> shift) & 0xff));
    body.push_back(static_cast<char>(kPointBytes));
    body += as_public;

    // The one (and so the last) record: the plaintext, the delimiter 2, then zeros.
    std::string record(plaintext);
    record.push_back('\x02');
    record.append(padding, '\0');
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    std::string out(record.size(), '\0');
    int len = 0, fin = 0;
    std::array<unsigned char, kTagBytes> tag{};
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, bytes(k.cek), bytes(k.nonce)) != 1 ||
        EVP_EncryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len, bytes(record),
                          static_cast<int>(record.size())) != 1 ||
        EVP_EncryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + len, &fin) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag.data()) != 1)
        return Error::failed("AES-128-GCM failed");
    out.resize(static_cast<std::size_t>(len) + static_cast<std::size_t>(fin));
    body += out;
    body.append(reinterpret_cast<const char*>(tag.data()), tag.size());
    return body;
}

}  // namespace

std::string base64url(std::string_view in) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((in.size() * 4 + 2) / 3);
    unsigned bits = 0, value = 0;
    for (unsigned char c : in) {
        value = ((value << 8) | c) & 0xffffU;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out.push_back(alphabet[(value >> bits) & 63]);
        }
    }
    if (bits > 0) out.push_back(alphabet[(value << (6 - bits)) & 63]);
    return out;
}

std::optional<std::string> from_base64url(std::string_view text) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    std::string out;
    unsigned bits = 0, value = 0;
    for (char c : text) {
        unsigned v = 0;
        if (c >= 'A' && c <= 'Z') v = static_cast<unsigned>(c - 'A');
        else if (c >= 'a' && c <= 'z') v = static_cast<unsigned>(c - 'a' + 26);
        else if (c >= '0' && c <= '9') v = static_cast<unsigned>(c - '0' + 52);
        else if (c == '-' || c == '+') v = 62;
        else if (c == '_' || c == '/') v = 63;
        else return std::nullopt;
        value = ((value << 6) | v) & 0xffffU;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((value >> bits) & 0xff));
        }
    }
    if (bits >= 6) return std::nullopt;  // one character alone cannot end a group
    return out;
}

Result<VapidKey> VapidKey::generate() {
    PkeyPtr key = new_p256();
    if (!key) return Error::failed("cannot make a P-256 key pair");
    VapidKey v;
    v.key_.reset(key.release(), EVP_PKEY_free);
    return v;
}

Result<VapidKey> VapidKey::from_pem(std::string_view pem) {
    BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!key) return Error::failed("not a PEM private key");
    VapidKey v;
    v.key_.reset(key, EVP_PKEY_free);
    if (!EVP_PKEY_is_a(key, "EC") || v.public_raw().empty()) return Error::failed("not a P-256 key");
    char group[32] = {};
    std::size_t len = 0;
    if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &len) != 1 ||
        std::string_view(group, len) != "prime256v1")
        return Error::failed("not a P-256 key");
    return v;
}

std::string VapidKey::pem() const {
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) return {};
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

std::string VapidKey::public_raw() const { return key_ ? public_point(key_.get()) : std::string(); }

Result<std::string> VapidKey::jwt(std::string_view audience, std::int64_t expires, std::string_view subject) const {
    const std::string header = base64url(R"({"typ":"JWT","alg":"ES256"})");
    const std::string claims = base64url("{\"aud\":" + json_quote(audience) + ",\"exp\":" + std::to_string(expires) +
                                         ",\"sub\":" + json_quote(subject) + "}");
    const std::string input = header + "." + claims;
    MdCtxPtr ctx(EVP_MD_CTX_new());
    std::size_t len = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len, bytes(input), input.size()) != 1)
        return Error::failed("ES256 signing failed");
    std::string der(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(der.data()), &len, bytes(input), input.size()) != 1)
        return Error::failed("ES256 signing failed");
    // JWS wants r and s side by side, 32 bytes each (RFC 7518 section 3.4), not DER.
    const unsigned char* p = bytes(der);
    SigPtr sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(len)));
    if (!sig) return Error::failed("ES256 signing failed");
    std::string raw(2 * kScalarBytes, '\0');
    auto* out = reinterpret_cast<unsigned char*>(raw.data());
    constexpr int half = static_cast<int>(kScalarBytes);
    if (BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), out, half) != half ||
        BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), out + kScalarBytes, half) != half)
        return Error::failed("ES256 signing failed");
    return input + "." + base64url(raw);
}

Result<std::string> VapidKey::authorization(std::string_view audience, std::int64_t expires,
                                            std::string_view subject) const {
    auto token = jwt(audience, expires, subject);
    if (!token) return token.error();
    return "vapid t=" + *token + ", k=" + public_key();
}

std::string vapid_key_path() {
    auto sessions = store::sessions_dir();
    if (sessions.empty()) return {};
    return (sessions.parent_path() / "web-push-key").string();
}

Result<VapidKey> load_vapid_key(const std::string& path, bool replace) {
    if (path.empty()) return Error::failed("no state directory for the push key: set XDG_STATE_HOME or HOME");
    struct stat st {};
    if (!replace && (::lstat(path.c_str(), &st) == 0 || errno != ENOENT)) {
        auto text = read_private_file(path, kMaxKeyFile);
        if (!text) return Error::failed("the push key " + path + ": " + text.error().message, path);
        auto key = VapidKey::from_pem(*text);
        if (!key)
            return Error::failed(
                "the push key " + path + ": " + key.error().message + " (make a new one: askhost web --new-token)",
                path);
        return key;
    }
    auto key = VapidKey::generate();
    if (!key) return key.error();
    if (auto err = store::atomic_write(path, key->pem(), 0600)) return *err;
    return key;
}

Result<std::string> encrypt(const Subscription& to, std::string_view plaintext, std::size_t padding) {
    std::string salt(kSaltBytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), static_cast<int>(salt.size())) != 1)
        return Error::failed("no random bytes for the salt");
    PkeyPtr as_key = new_p256();
    if (!as_key) return Error::failed("cannot make a P-256 key pair");
    return seal(to, plaintext, padding, salt, as_key.get());
}

Result<std::string> decrypt(std::string_view body, std::string_view ua_private, std::string_view ua_public,
                            std::string_view auth) {
    if (body.size() < kHeaderBytes + kTagBytes + 1) return Error::failed("shorter than a header and a record");
    const std::string_view salt = body.substr(0, kSaltBytes);
    std::uint32_t rs = 0;
    for (std::size_t i = 0; i < 4; ++i) rs = (rs << 8) | static_cast<unsigned char>(body[kSaltBytes + i]);
    if (static_cast<unsigned char>(body[kSaltBytes + 4]) != kPointBytes)
        return Error::failed("a keyid not of 65 bytes");
    const std::string_view as_public = body.substr(kSaltBytes + 5, kPointBytes);
    const std::string_view record = body.substr(kHeaderBytes);
    if (record.size() > rs) return Error::failed("more than one record");
    PkeyPtr own = make_key(ua_public, ua_private);
    PkeyPtr peer = make_key(as_public, {});
    if (!own || !peer) return Error::failed("not P-256 keys");
    auto secret = ecdh(own.get(), peer.get());
    if (!secret) return Error::failed("ECDH failed");
    const ContentKeys k = derive(*secret, auth, ua_public, as_public, salt);
    const std::string_view cipher = record.substr(0, record.size() - kTagBytes);
    std::string tag(record.substr(cipher.size()));
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    std::string out(cipher.size(), '\0');
    int len = 0, fin = 0;
    if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, bytes(k.cek), bytes(k.nonce)) != 1 ||
        EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len, bytes(cipher),
                          static_cast<int>(cipher.size())) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + len, &fin) != 1)
        return Error::failed("the record does not decrypt (wrong keys, or altered)");
    out.resize(static_cast<std::size_t>(len) + static_cast<std::size_t>(fin));
    while (!out.empty() && out.back() == '\0') out.pop_back();
    if (out.empty() || out.back() != '\x02') return Error::failed("no last-record delimiter");
    out.pop_back();
    return out;
}

std::string topic_for(std::string_view tag) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    const std::string text = "askhost web push topic\n" + std::string(tag);
    EVP_Digest(text.data(), text.size(), md.data(), &len, EVP_sha256(), nullptr);
    return base64url(std::string_view(reinterpret_cast<const char*>(md.data()), 24));
}

namespace testing {

Result<std::string> encrypt_with(const Subscription& to, std::string_view plaintext, std::size_t padding,
                                 std::string_view salt, std::string_view as_private) {
    auto as_public = point_of(as_private);
    if (!as_public || salt.size() != kSaltBytes) return Error::failed("a salt of 16 bytes and a P-256 scalar");
    PkeyPtr key = make_key(*as_public, as_private);
    if (!key) return Error::failed("not a P-256 scalar");
    return seal(to, plaintext, padding, salt, key.get());
}

}  // namespace testing

}  // namespace askhost::web::push
