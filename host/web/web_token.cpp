#include "web/web_token.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "store/fs_util.hpp"
#include "store/journal.hpp"

namespace askhost::web {

namespace {

constexpr std::size_t kTokenBytes = 24;  // 192 bits: 32 characters of base64url
constexpr std::size_t kMaxFileBytes = 4096;

Result<std::string> random_token() { return random_text(kTokenBytes); }

std::string hex_of(const unsigned char* data, std::size_t len) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < len; ++i) {
        out.push_back(hex[data[i] >> 4]);
        out.push_back(hex[data[i] & 15]);
    }
    return out;
}

std::string sha256_hex(std::string_view text) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(text.data(), text.size(), md, &len, EVP_sha256(), nullptr);
    return hex_of(md, len);
}

bool token_text(const std::string& s) {
    if (s.size() < 22 || s.size() > 256) return false;  // at least 128 bits of base64url
    for (unsigned char c : s)
        if (!(std::isalnum(c) || c == '-' || c == '_')) return false;
    return true;
}

}  // namespace

// A file of ours only: not a link, owned by this user, private. Its text, else why not.
Result<std::string> read_private_file(const std::string& path, std::size_t max) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return Error::failed(store::errno_text(errno), path);
    struct stat st {};
    std::string why;
    if (::fstat(fd, &st) != 0) why = store::errno_text(errno);
    else if (!S_ISREG(st.st_mode)) why = "not a regular file";
    else if (st.st_uid != ::geteuid()) why = "not owned by this user";
    else if (st.st_mode & 077) why = "readable or writable by others";
    else if (st.st_size > static_cast<off_t>(max)) why = "too large";
    std::string text(max, '\0');
    ssize_t n = why.empty() ? ::read(fd, text.data(), text.size()) : 0;
    ::close(fd);
    if (why.empty() && n < 0) why = store::errno_text(errno);
    if (!why.empty()) return Error::failed(why, path);
    text.resize(static_cast<std::size_t>(n));
    return text;
}

std::string token_path() {
    auto sessions = store::sessions_dir();  // .../askhost/sessions: the token lives beside it
    if (sessions.empty()) return {};
    return (sessions.parent_path() / "web-token").string();
}

Status TokenFile::load(bool replace) {
    if (path_.empty()) return Error::failed("no state directory for the token: set XDG_STATE_HOME or HOME");
    if (!replace) {
        struct stat st {};
        if (::lstat(path_.c_str(), &st) == 0 || errno != ENOENT) return read();
    }
    return write_new();
}

Status TokenFile::write_new() {
    auto token = random_token();
    if (!token) return token.error();
    if (auto err = store::atomic_write(path_, *token + "\n", 0600)) return err;
    return read();
}

Status TokenFile::read() {
    // O_NOFOLLOW and fstat: a link or someone else's file planted there is not taken for ours.
    int fd = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return Error::failed("cannot read the token " + path_ + ": " + store::errno_text(errno), path_);
    struct stat st {};
    std::string why;
    if (::fstat(fd, &st) != 0) why = store::errno_text(errno);
    else if (!S_ISREG(st.st_mode)) why = "not a regular file";
    else if (st.st_uid != ::geteuid()) why = "not owned by this user";
    else if (st.st_mode & 077) why = "readable or writable by others (make a new one: askhost web --new-token)";
    else if (st.st_size > static_cast<off_t>(kMaxFileBytes)) why = "too large to be a token";
    std::string text(kMaxFileBytes, '\0');
    ssize_t n = why.empty() ? ::read(fd, text.data(), text.size()) : 0;
    ::close(fd);
    if (why.empty() && n < 0) why = store::errno_text(errno);
    if (!why.empty()) return Error::failed("the token " + path_ + ": " + why, path_);
    text.resize(static_cast<std::size_t>(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (!token_text(text))
        return Error::failed(
            "the token " + path_ + " is not one askhost made (make a new one: askhost web --new-token)", path_);
    token_ = std::move(text);
    inode_ = st.st_ino;
    mtime_ = st.st_mtim;
    return std::nullopt;
}

bool TokenFile::refresh() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return false;  // gone: the token in memory stays until a new one
    if (st.st_ino == inode_ && st.st_mtim.tv_sec == mtime_.tv_sec && st.st_mtim.tv_nsec == mtime_.tv_nsec) return false;
    const std::string before = token_;
    if (read()) return false;
    return token_ != before;
}

Result<std::string> random_text(std::size_t bytes) {
    std::string raw(bytes, '\0');
    std::size_t have = 0;
    while (have < raw.size()) {
        ssize_t n = ::getrandom(raw.data() + have, raw.size() - have, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Error::failed("no random bytes from the kernel: " + store::errno_text(errno));
        have += static_cast<std::size_t>(n);
    }
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    unsigned bits = 0, value = 0;
    for (unsigned char c : raw) {
        value = (value << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out.push_back(alphabet[(value >> bits) & 63]);
        }
    }
    if (bits > 0) out.push_back(alphabet[(value << (6 - bits)) & 63]);
    return out;
}

std::string hmac_hex(std::string_view key, std::string_view message) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
         message.size(), mac, &len);
    return hex_of(mac, len);
}

std::string token_proof(std::string_view token, std::string_view nonce) {
    return hmac_hex(token, "askhost web proof v1\n" + std::string(nonce));
}

Sessions::Sessions() { replace(); }

void Sessions::replace() {
    // Without random bytes no cookie can be trusted: a key nobody knows, and a name nobody matches.
    auto key = random_text(32);
    auto id = random_text(16);
    if (!key || !id) std::abort();
    key_ = *key;
    id_ = *id;
}

std::string Sessions::mint(std::int64_t now) const {
    const std::string expiry = std::to_string(now + kLifetimeSeconds);
    return expiry + "." + hmac_hex(key_, "askhost web session v2\n" + expiry);
}

bool Sessions::valid(std::string_view cookie, std::int64_t now) const {
    const auto dot = cookie.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot > 12) return false;
    std::int64_t expiry = 0;
    for (char c : cookie.substr(0, dot)) {
        if (c < '0' || c > '9') return false;
        expiry = expiry * 10 + (c - '0');
    }
    const std::string expected = hmac_hex(key_, "askhost web session v2\n" + std::string(cookie.substr(0, dot)));
    const std::string_view mac = cookie.substr(dot + 1);
    if (mac.size() != expected.size() || CRYPTO_memcmp(mac.data(), expected.data(), mac.size()) != 0) return false;
    return expiry > now;
}

std::string sign_in_path() {
    auto sessions = store::sessions_dir();
    if (sessions.empty()) return {};
    return (sessions.parent_path() / "web-sign-in").string();
}

namespace {

constexpr std::size_t kMaxCodes = 8;  // the newest; an older one still open stops working
constexpr std::size_t kCodeFileBytes = 4096;

struct CodeLine {
    std::string hash;
    std::int64_t expiry = 0;
};

std::vector<CodeLine> read_codes(const std::string& path, std::int64_t now) {
    std::vector<CodeLine> out;
    auto text = read_private_file(path, kCodeFileBytes);
    if (!text) return out;
    std::size_t at = 0;
    while (at < text->size()) {
        auto end = text->find('\n', at);
        if (end == std::string::npos) end = text->size();
        const std::string line = text->substr(at, end - at);
        at = end + 1;
        const auto space = line.find(' ');
        if (space != 64) continue;
        CodeLine c{line.substr(0, space), 0};
        try {
            c.expiry = std::stoll(line.substr(space + 1));
        } catch (...) {
            continue;
        }
        if (c.expiry > now) out.push_back(std::move(c));
    }
    return out;
}

Status write_codes(const std::string& path, const std::vector<CodeLine>& codes) {
    std::string text;
    for (const auto& c : codes) text += c.hash + " " + std::to_string(c.expiry) + "\n";
    return store::atomic_write(path, text, 0600);
}

}  // namespace

Result<std::string> SignInCodes::add(std::int64_t now) const {
    if (path_.empty()) return Error::failed("no state directory for sign-in links: set XDG_STATE_HOME or HOME");
    auto code = random_text(18);
    if (!code) return code.error();
    auto codes = read_codes(path_, now);
    if (codes.size() >= kMaxCodes) codes.erase(codes.begin(), codes.end() - (kMaxCodes - 1));
    codes.push_back({sha256_hex(*code), now + kLifetimeSeconds});
    if (auto err = write_codes(path_, codes)) return *err;
    return *code;
}

Status SignInCodes::clear() const {
    if (path_.empty()) return {};
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec)) return {};
    return write_codes(path_, {});
}

bool SignInCodes::take(std::string_view code, std::int64_t now) const {
    if (path_.empty() || code.empty() || code.size() > 64) return false;
    auto codes = read_codes(path_, now);
    const std::string hash = sha256_hex(code);
    bool found = false;
    std::erase_if(codes, [&](const CodeLine& c) {
        const bool same = CRYPTO_memcmp(c.hash.data(), hash.data(), hash.size()) == 0;
        found = found || same;
        return same;
    });
    if (!found) return false;
    // Taken only once it is gone from the file: a code that cannot be struck out opens nothing.
    return !write_codes(path_, codes);
}

}  // namespace askhost::web
