#define BOOST_TEST_MODULE web_push
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>

#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <rapidjson/document.h>
#include "scratch.hpp"
#include "web/web_push.hpp"

using namespace askhost::web::push;

namespace {

std::string b64(std::string_view text) {
    auto out = from_base64url(text);
    BOOST_REQUIRE(out);
    return *out;
}

// RFC 8291 Appendix A.
const char* const kPlaintext = "V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24";
const char* const kAsPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
const char* const kUaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const char* const kUaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
const char* const kSalt = "DGv6ra1nlYgDCS1FRnbzlw";
const char* const kAuth = "BTBZMqHH6r4Tts7J_aSIgg";
const char* const kBody =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3j"
    "l7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

// A browser's subscription key pair: its scalar and point.
struct UserAgent {
    std::string priv, pub, auth;
};

UserAgent new_user_agent(std::mt19937& rng) {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    BOOST_REQUIRE(key);
    UserAgent ua;
    ua.pub.assign(65, '\0');
    std::size_t len = 0;
    BOOST_REQUIRE(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY,
                                                  reinterpret_cast<unsigned char*>(ua.pub.data()), 65, &len) == 1);
    BIGNUM* d = nullptr;
    BOOST_REQUIRE(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1);
    ua.priv.assign(32, '\0');
    BOOST_REQUIRE(BN_bn2binpad(d, reinterpret_cast<unsigned char*>(ua.priv.data()), 32) == 32);
    BN_free(d);
    EVP_PKEY_free(key);
    for (int i = 0; i < 16; ++i) ua.auth.push_back(static_cast<char>(rng() & 0xff));
    return ua;
}

// An ES256 JWT checked with nothing but the public key (raw point) and OpenSSL: its claims, or
// nothing when the signature does not hold.
std::optional<std::string> verified_claims(const std::string& jwt, const std::string& public_raw) {
    const auto dot1 = jwt.find('.');
    const auto dot2 = jwt.find('.', dot1 + 1);
    if (dot1 == std::string::npos || dot2 == std::string::npos) return std::nullopt;
    const std::string input = jwt.substr(0, dot2);
    auto raw = from_base64url(jwt.substr(dot2 + 1));
    if (!raw || raw->size() != 64) return std::nullopt;
    ECDSA_SIG* sig = ECDSA_SIG_new();
    ECDSA_SIG_set0(sig, BN_bin2bn(reinterpret_cast<const unsigned char*>(raw->data()), 32, nullptr),
                   BN_bin2bn(reinterpret_cast<const unsigned char*>(raw->data()) + 32, 32, nullptr));
    unsigned char* der = nullptr;
    const int der_len = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, public_raw.data(), public_raw.size());
    OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX* pctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
    EVP_PKEY* key = nullptr;
    EVP_PKEY_fromdata_init(pctx);
    EVP_PKEY_fromdata(pctx, &key, EVP_PKEY_PUBLIC_KEY, params);
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    const bool ok = key && EVP_DigestVerifyInit(md, nullptr, EVP_sha256(), nullptr, key) == 1 &&
                    EVP_DigestVerify(md, der, static_cast<std::size_t>(der_len),
                                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    OPENSSL_free(der);
    if (!ok) return std::nullopt;
    return from_base64url(jwt.substr(dot1 + 1, dot2 - dot1 - 1));
}

struct TempDir : askhost::test::ScratchDir {
    TempDir() : ScratchDir("askhost-push") {}
};

}  // namespace

BOOST_AUTO_TEST_CASE(base64url_both_ways) {
    BOOST_TEST(base64url("") == "");
    BOOST_TEST(base64url("f") == "Zg");
    BOOST_TEST(base64url("fo") == "Zm8");
    BOOST_TEST(base64url("foo") == "Zm9v");
    BOOST_TEST(base64url("\xfb\xff") == "-_8");
    BOOST_TEST(*from_base64url("-_8") == "\xfb\xff");
    BOOST_TEST(*from_base64url("+/8=") == "\xfb\xff");  // the standard alphabet and padding too
    BOOST_TEST(!from_base64url("Z"));
    BOOST_TEST(!from_base64url("Zm9v!"));
}

// RFC 8291 Appendix A, byte for byte: its keys, salt and secret give its body.
BOOST_AUTO_TEST_CASE(rfc8291_appendix_a) {
    Subscription to{"https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV", b64(kUaPublic), b64(kAuth)};
    auto body = testing::encrypt_with(to, b64(kPlaintext), 0, b64(kSalt), b64(kAsPrivate));
    BOOST_REQUIRE_MESSAGE(body, (body ? "" : body.error().message));
    BOOST_TEST(base64url(*body) == kBody);
    BOOST_TEST(*body == b64(kBody));
    // And the browser's side reads it back.
    auto plain = decrypt(b64(kBody), b64(kUaPrivate), b64(kUaPublic), b64(kAuth));
    BOOST_REQUIRE(plain);
    BOOST_TEST(*plain == "When I grow up, I want to be a watermelon");
}

BOOST_AUTO_TEST_CASE(round_trips_for_random_inputs) {
    std::mt19937 rng(44);
    for (int i = 0; i < 40; ++i) {
        UserAgent ua = new_user_agent(rng);
        const Subscription to{"https://push.example.net/x", ua.pub, ua.auth};
        std::string text(rng() % 600 + (i == 0 ? 0 : 1), '\0');
        if (i == 1) text.assign(kMaxPlaintext, 'x');
        for (char& c : text) c = static_cast<char>(rng() & 0xff);
        const std::size_t padding = i % 3 == 0 ? rng() % 200 : 0;
        auto body = encrypt(to, text, i == 1 ? 0 : padding);
        BOOST_REQUIRE(body);
        BOOST_TEST(body->size() <= 4096u);
        BOOST_TEST(body->substr(16, 4) == std::string("\x00\x00\x10\x00", 4));  // rs 4096
        auto plain = decrypt(*body, ua.priv, ua.pub, ua.auth);
        BOOST_REQUIRE_MESSAGE(plain, (plain ? "" : plain.error().message));
        BOOST_TEST(*plain == text);
        // Each message has its own salt and key: the same text twice is not the same body.
        auto again = encrypt(to, text, i == 1 ? 0 : padding);
        BOOST_REQUIRE(again);
        BOOST_TEST(*again != *body);
        // Another browser's keys, or one altered byte, read nothing.
        UserAgent other = new_user_agent(rng);
        BOOST_TEST(!decrypt(*body, other.priv, other.pub, ua.auth));
        std::string altered = *body;
        altered[altered.size() - 20] = static_cast<char>(altered[altered.size() - 20] ^ 1);
        BOOST_TEST(!decrypt(altered, ua.priv, ua.pub, ua.auth));
    }
}

BOOST_AUTO_TEST_CASE(refuses_what_it_cannot_send) {
    std::mt19937 rng(7);
    UserAgent ua = new_user_agent(rng);
    BOOST_TEST(!encrypt({"https://x/", ua.pub, ua.auth}, std::string(kMaxPlaintext + 1, 'x')));
    BOOST_TEST(!encrypt({"https://x/", ua.pub, "short"}, "hi"));
    std::string not_a_point = ua.pub;
    not_a_point[40] = static_cast<char>(not_a_point[40] ^ 1);
    auto r = encrypt({"https://x/", not_a_point, ua.auth}, "hi");
    BOOST_TEST(!r);
}

BOOST_AUTO_TEST_CASE(vapid_jwt_verifies_with_the_public_key) {
    auto key = VapidKey::generate();
    BOOST_REQUIRE(key);
    BOOST_TEST(key->public_raw().size() == 65u);
    BOOST_TEST(key->public_raw()[0] == '\x04');
    auto jwt = key->jwt("https://push.example.net", 1795600000, "mailto:me@example.org");
    BOOST_REQUIRE(jwt);
    const std::string header = jwt->substr(0, jwt->find('.'));
    BOOST_TEST(*from_base64url(header) == R"({"typ":"JWT","alg":"ES256"})");
    auto claims = verified_claims(*jwt, key->public_raw());
    BOOST_REQUIRE(claims);
    rapidjson::Document doc;
    doc.Parse(claims->c_str());
    BOOST_REQUIRE(doc.IsObject());
    BOOST_TEST(std::string(doc["aud"].GetString()) == "https://push.example.net");
    BOOST_TEST(doc["exp"].GetInt64() == 1795600000);
    BOOST_TEST(std::string(doc["sub"].GetString()) == "mailto:me@example.org");
    // Another key does not verify it; nor does an altered claim.
    auto other = VapidKey::generate();
    BOOST_REQUIRE(other);
    BOOST_TEST(!verified_claims(*jwt, other->public_raw()));
    std::string altered = *jwt;
    altered[header.size() + 3] = altered[header.size() + 3] == 'A' ? 'B' : 'A';
    BOOST_TEST(!verified_claims(altered, key->public_raw()));

    auto auth = key->authorization("https://push.example.net", 1795600000, "mailto:me@example.org");
    BOOST_REQUIRE(auth);
    BOOST_TEST(auth->rfind("vapid t=", 0) == 0u);
    BOOST_TEST(auth->find(", k=" + key->public_key()) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(key_file_is_made_once_private_and_replaced_on_request) {
    TempDir dir;
    const std::string path = (dir.path / "web-push-key").string();
    auto first = load_vapid_key(path, false);
    BOOST_REQUIRE(first);
    struct stat st {};
    BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
    BOOST_TEST((st.st_mode & 0777) == 0600u);
    auto again = load_vapid_key(path, false);
    BOOST_REQUIRE(again);
    BOOST_TEST(again->public_key() == first->public_key());
    auto fresh = load_vapid_key(path, true);
    BOOST_REQUIRE(fresh);
    BOOST_TEST(fresh->public_key() != first->public_key());
    BOOST_TEST(load_vapid_key(path, false)->public_key() == fresh->public_key());
    // A key others can read is not used.
    ::chmod(path.c_str(), 0644);
    auto shared = load_vapid_key(path, false);
    BOOST_REQUIRE(!shared);
    BOOST_TEST(shared.error().message.find("readable or writable by others") != std::string::npos);
    ::chmod(path.c_str(), 0600);
    // Nor is a file that is not a key.
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        std::fputs("not a key\n", f);
        std::fclose(f);
    }
    ::chmod(path.c_str(), 0600);
    auto junk = load_vapid_key(path, false);
    BOOST_REQUIRE(!junk);
    BOOST_TEST(junk.error().message.find("--new-token") != std::string::npos);
}
