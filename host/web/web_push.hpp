// The cryptography of Web Push (issue 44), with OpenSSL's EVP interfaces alone: askhost web's
// VAPID key (RFC 8292: a P-256 key pair kept 0600 in the state directory, and the ES256 JWT that
// names the sender to a push service) and the message encryption of RFC 8291 (aes128gcm: ECDH
// P-256 with the browser's subscription key, HKDF-SHA-256, AES-128-GCM, one record). No I/O but
// the key file; the sending is web_push_sender's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

struct evp_pkey_st;

namespace askhost::web::push {

// RFC 4648's URL-safe alphabet without padding, as Web Push writes keys and JWTs.
std::string base64url(std::string_view bytes);
// Accepts padding and the standard alphabet too (browsers' toJSON() gives base64url); nullopt
// when `text` is not base64.
std::optional<std::string> from_base64url(std::string_view text);

// askhost web's VAPID key pair (P-256).
class VapidKey {
public:
    static Result<VapidKey> generate();
    // From a PEM private key (PKCS#8 or SEC1); else why not.
    static Result<VapidKey> from_pem(std::string_view pem);

    std::string pem() const;                                            // PKCS#8, for the key file
    std::string public_raw() const;                                     // the 65-byte uncompressed point
    std::string public_key() const { return base64url(public_raw()); }  // the page's applicationServerKey

    // An ES256 JWT (RFC 7515/7519) with claims {aud, exp, sub}; else why not.
    Result<std::string> jwt(std::string_view audience, std::int64_t expires, std::string_view subject) const;
    // The Authorization header's value of RFC 8292: `vapid t=JWT, k=PUBLIC`.
    Result<std::string> authorization(std::string_view audience, std::int64_t expires, std::string_view subject) const;

private:
    std::shared_ptr<evp_pkey_st> key_;
};

// $XDG_STATE_HOME/askhost/web-push-key, beside the token; "" without a home.
std::string vapid_key_path();
// The key in `path`, made (0600) when there is none; `replace` makes a new one in any case
// (askhost web --new-token). A file others can read is refused, as the token's is.
Result<VapidKey> load_vapid_key(const std::string& path, bool replace);

// What a browser's PushSubscription gives (its toJSON()): where to post, and its keys, decoded.
struct Subscription {
    std::string endpoint;
    std::string p256dh;  // the browser's public key: 65 bytes, uncompressed P-256
    std::string auth;    // the authentication secret: 16 bytes
};

// RFC 8188's record size askhost writes: one record carries a whole message (at most
// kMaxPlaintext bytes, what every push service accepts: 4096 bytes of body).
inline constexpr std::uint32_t kRecordSize = 4096;
inline constexpr std::size_t kMaxPlaintext = kRecordSize - 86 - 17;

// `plaintext` encrypted for the subscription's browser (RFC 8291): the aes128gcm body (header,
// then the one record), padded with `padding` zero bytes; a new salt and a new ephemeral key each
// time. Else why not (a plaintext too long, a key that is not a point of P-256).
Result<std::string> encrypt(const Subscription& to, std::string_view plaintext, std::size_t padding = 0);

// The browser's side: the plaintext of an aes128gcm body for the key pair (`ua_private`: the
// 32-byte scalar; `ua_public`: its point) and `auth`; else why not. For tests, and for askhost's
// own push-service stand-ins.
Result<std::string> decrypt(std::string_view body, std::string_view ua_private, std::string_view ua_public,
                            std::string_view auth);

// A message's Topic (RFC 8030 section 5.4) for a notification's tag: 32 base64url characters, so
// that a closing message replaces its question's on a push service that still holds it.
std::string topic_for(std::string_view tag);

namespace testing {
// encrypt() with a fixed salt (16 bytes) and a fixed ephemeral private key (32 bytes): RFC 8291
// Appendix A's worked example, reproduced byte for byte. Never for a real message.
Result<std::string> encrypt_with(const Subscription& to, std::string_view plaintext, std::size_t padding,
                                 std::string_view salt, std::string_view as_private);
}  // namespace testing

}  // namespace askhost::web::push
