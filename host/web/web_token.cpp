#include "web/web_token.hpp"

#include <cctype>
#include <cerrno>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "store/fs_util.hpp"
#include "store/journal.hpp"

namespace askhost::web {

namespace {

constexpr std::size_t kTokenBytes = 24;  // 192 bits: 32 characters of base64url
constexpr std::size_t kMaxFileBytes = 4096;

Result<std::string> random_token() {
    unsigned char raw[kTokenBytes];
    std::size_t have = 0;
    while (have < sizeof raw) {
        ssize_t n = ::getrandom(raw + have, sizeof raw - have, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Error::failed("no random bytes from the kernel: " + store::errno_text(errno));
        have += static_cast<std::size_t>(n);
    }
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    for (std::size_t i = 0; i + 2 < sizeof raw; i += 3) {
        unsigned v = (unsigned{raw[i]} << 16) | (unsigned{raw[i + 1]} << 8) | raw[i + 2];
        for (int shift = 18; shift >= 0; shift -= 6) out.push_back(alphabet[(v >> shift) & 63]);
    }
    return out;
}

bool token_text(const std::string& s) {
    if (s.size() < 22 || s.size() > 256) return false;  // at least 128 bits of base64url
    for (unsigned char c : s)
        if (!(std::isalnum(c) || c == '-' || c == '_')) return false;
    return true;
}

std::string session_cookie(const std::string& token) {
    static constexpr std::string_view label = "askhost web session v1";
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), token.data(), static_cast<int>(token.size()),
         reinterpret_cast<const unsigned char*>(label.data()), label.size(), mac, &len);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out.push_back(hex[mac[i] >> 4]);
        out.push_back(hex[mac[i] & 15]);
    }
    return out;
}

}  // namespace

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
    cookie_ = session_cookie(token_);
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

}  // namespace askhost::web
