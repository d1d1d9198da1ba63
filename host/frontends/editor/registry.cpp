#include "frontends/editor/registry.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/fd_io.hpp"
#include "core/model/question.hpp"
#include "core/proc_stat.hpp"
#include "core/text/ascii.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost {

namespace {

using json::member;
using json::string_of;

constexpr std::size_t kMaxRecordBytes = std::size_t{256} * 1024;  // a hand-edited giant is skipped, not read
constexpr std::size_t kMaxFolders = 256;

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool alive(const HostRecord& r) {
    if (r.pid <= 0 || r.pid > INT_MAX) return false;
    if (::kill(static_cast<pid_t>(r.pid), 0) != 0 && errno == ESRCH) return false;
    // A pid reused by another process since the record was written.
    if (r.proc_start) {
        auto stat = read_proc_stat(static_cast<pid_t>(r.pid));
        if (!stat || stat->start_ticks != r.proc_start) return false;
    }
    return true;
}

// A directory with symbolic links resolved (as the kernel sees it), or the text as given.
std::string resolved(const std::string& path) {
    char buf[PATH_MAX];
    if (::realpath(path.c_str(), buf)) return buf;
    return path;
}

bool holds(const std::string& folder, const std::string& dir) {
    if (folder == "/") return true;
    return dir == folder ||
           (dir.size() > folder.size() && dir.compare(0, folder.size(), folder) == 0 && dir[folder.size()] == '/');
}

}  // namespace

std::optional<std::string> path_from_file_uri(std::string_view uri) {
    constexpr std::string_view scheme = "file://";
    if (!ascii::equal_ignoring_case(uri.substr(0, scheme.size()), scheme)) return std::nullopt;
    std::string_view rest = uri.substr(scheme.size());
    // file://localhost/x and file:///x name the same folder; another host's does not count.
    if (rest.rfind("localhost/", 0) == 0) rest.remove_prefix(9);
    if (rest.empty() || rest[0] != '/') return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '%' && i + 2 < rest.size() && hex_value(rest[i + 1]) >= 0 && hex_value(rest[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex_value(rest[i + 1]) * 16 + hex_value(rest[i + 2])));
            i += 2;
        } else if (rest[i] == '?' || rest[i] == '#') {
            break;
        } else {
            out.push_back(rest[i]);
        }
    }
    // A NUL cannot be in a path; a path that is not UTF-8 cannot be written in a JSON record.
    if (out.find('\0') != std::string::npos || !utf8_valid(out)) return std::nullopt;
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

std::string file_uri(std::string_view path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out = "file://";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

WorkspaceFolder folder_from_path(const std::string& path) {
    WorkspaceFolder f;
    f.path = path;
    while (f.path.size() > 1 && f.path.back() == '/') f.path.pop_back();
    f.uri = file_uri(f.path);
    auto slash = f.path.rfind('/');
    f.name = slash == std::string::npos || slash + 1 == f.path.size() ? f.path : f.path.substr(slash + 1);
    return f;
}

std::string record_json(const HostRecord& r) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    auto str = [&](const char* key, const std::string& v) {
        w.Key(key);
        w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    };
    w.StartObject();
    w.Key("version");
    w.Int(1);
    w.Key("pid");
    w.Int64(r.pid);
    str("socket", r.socket);
    w.Key("workspaceFolders");
    w.StartArray();
    for (const auto& f : r.folders) {
        w.StartObject();
        str("uri", f.uri);
        str("name", f.name);
        str("path", f.path);
        w.EndObject();
    }
    w.EndArray();
    w.Key("client");
    w.StartObject();
    str("name", r.client_name);
    str("version", r.client_version);
    w.EndObject();
    str("kind", r.kind);
    str("startTime", store::iso8601_utc(r.start_ms));
    w.Key("startMs");
    w.Int64(r.start_ms);
    w.Key("processStart");
    w.Uint64(r.proc_start);
    if (!r.tmux_pane.empty()) {
        w.Key("tmux");
        w.StartObject();
        str("server", r.tmux_server);
        str("pane", r.tmux_pane);
        w.EndObject();
    }
    w.Key("waiting");
    w.Int(r.waiting);
    if (r.waiting > 0) {
        w.Key("waitingSince");
        w.Int64(r.waiting_since_ms);
    }
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

std::optional<HostRecord> parse_record(std::string_view text) {
    rapidjson::Document doc;
    if (json::parse(doc, text) || !doc.IsObject()) return std::nullopt;
    const auto* version = member(doc, "version");
    const auto* pid = member(doc, "pid");
    if (!version || !version->IsInt() || version->GetInt() != 1) return std::nullopt;
    if (!pid || !pid->IsInt64() || pid->GetInt64() <= 0) return std::nullopt;
    HostRecord r;
    r.pid = static_cast<long>(pid->GetInt64());
    r.socket = string_of(doc, "socket");
    if (r.socket.empty() || r.socket[0] != '/') return std::nullopt;
    r.kind = string_of(doc, "kind");
    if (const auto* c = member(doc, "client")) {
        r.client_name = string_of(*c, "name");
        r.client_version = string_of(*c, "version");
    }
    if (const auto* ms = member(doc, "startMs"); ms && ms->IsInt64()) r.start_ms = ms->GetInt64();
    if (const auto* ps = member(doc, "processStart"); ps && ps->IsUint64()) r.proc_start = ps->GetUint64();
    if (const auto* n = member(doc, "waiting"); n && n->IsInt() && n->GetInt() >= 0) r.waiting = n->GetInt();
    if (const auto* t = member(doc, "tmux")) {
        r.tmux_server = string_of(*t, "server");
        r.tmux_pane = string_of(*t, "pane");
    }
    if (const auto* ws = member(doc, "waitingSince"); ws && ws->IsInt64()) r.waiting_since_ms = ws->GetInt64();
    if (const auto* folders = member(doc, "workspaceFolders"); folders && folders->IsArray()) {
        for (const auto& f : folders->GetArray()) {
            if (r.folders.size() >= kMaxFolders) break;
            WorkspaceFolder wf;
            wf.uri = string_of(f, "uri");
            wf.name = string_of(f, "name");
            wf.path = string_of(f, "path");
            if (wf.path.empty()) wf.path = path_from_file_uri(wf.uri).value_or("");
            if (wf.path.empty() || wf.path[0] != '/' || wf.path.find('\0') != std::string::npos) continue;
            if (!utf8_valid(wf.uri) || !utf8_valid(wf.name) || !utf8_valid(wf.path)) continue;
            r.folders.push_back(std::move(wf));
        }
    }
    return r;
}

Registration::~Registration() { remove(); }

Status Registration::publish(const std::string& socket, std::string kind) {
    record_.pid = static_cast<long>(::getpid());
    record_.socket = socket;
    record_.kind = std::move(kind);
    record_.start_ms = store::now_ms();
    auto stat = read_proc_stat(static_cast<pid_t>(record_.pid));
    record_.proc_start = stat ? stat->start_ticks : 0;
    auto slash = socket.rfind('/');
    if (slash == std::string::npos) return Error::failed("no directory in " + socket, socket);
    record_.file = socket.substr(0, slash) + "/host-" + std::to_string(record_.pid) + ".json";
    published_ = true;
    return write();
}

void Registration::update(std::vector<WorkspaceFolder> folders, std::string client_name, std::string client_version) {
    auto same = [](const std::vector<WorkspaceFolder>& a, const std::vector<WorkspaceFolder>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].path != b[i].path || a[i].name != b[i].name || a[i].uri != b[i].uri) return false;
        return true;
    };
    if (same(folders, record_.folders) && client_name == record_.client_name &&
        client_version == record_.client_version)
        return;
    record_.folders = std::move(folders);
    record_.client_name = std::move(client_name);
    record_.client_version = std::move(client_version);
    if (published_) write();
}

void Registration::set_tmux(std::string server, std::string pane) {
    if (server == record_.tmux_server && pane == record_.tmux_pane) return;
    record_.tmux_server = std::move(server);
    record_.tmux_pane = std::move(pane);
    if (published_) write();
}

void Registration::set_waiting(int count) {
    if (count == record_.waiting) return;
    if (count > 0 && record_.waiting == 0) record_.waiting_since_ms = store::now_ms();
    record_.waiting = count;
}

void Registration::flush() {
    // A question that came and went since the last write leaves the file as it was.
    if (published_ &&
        (record_.waiting != written_waiting_ || (record_.waiting > 0 && record_.waiting_since_ms != written_since_ms_)))
        write();
}

Status Registration::write() {
    written_waiting_ = record_.waiting;
    written_since_ms_ = record_.waiting_since_ms;
    // Runtime state, rewritten as questions come and go: replaced atomically (a reader sees the
    // old record or the new), not synced to disk (it means nothing after a reboot).
    const std::string temp = record_.file + ".tmp";
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return Error::failed("cannot write " + temp + ": " + store::errno_text(errno), record_.file);
    bool ok = write_all(fd, record_json(record_));
    ok = ::close(fd) == 0 && ok;
    if (!ok || ::rename(temp.c_str(), record_.file.c_str()) != 0) {
        int err = errno;
        ::unlink(temp.c_str());
        return Error::failed("cannot write " + record_.file + ": " + store::errno_text(err), record_.file);
    }
    return std::nullopt;
}

void Registration::remove() {
    if (!published_) return;
    published_ = false;
    ::unlink(record_.file.c_str());
}

std::vector<HostRecord> list_hosts(const std::string& dir, std::vector<std::string>* skipped) {
    std::vector<HostRecord> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    const uid_t me = ::geteuid();
    while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name.rfind("host-", 0) != 0 || name.size() < 10 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
        std::string path = dir + "/" + name;
        auto skip = [&](const std::string& why) {
            if (skipped) skipped->push_back(path + ": " + why);
        };
        // O_NOFOLLOW: a link planted in the registry is not followed; fstat checks what was opened.
        int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            skip(store::errno_text(errno));
            continue;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            skip("not a regular file");
            continue;
        }
        if (st.st_uid != me) {
            ::close(fd);
            skip("owned by uid " + std::to_string(st.st_uid) + ", not by this user");
            continue;
        }
        if (st.st_mode & 077) {
            ::close(fd);
            skip("readable or writable by others");
            continue;
        }
        if (static_cast<std::size_t>(st.st_size) > kMaxRecordBytes) {
            ::close(fd);
            skip("larger than " + std::to_string(kMaxRecordBytes) + " bytes");
            continue;
        }
        std::string text(static_cast<std::size_t>(st.st_size), '\0');
        ssize_t n = ::read(fd, text.data(), text.size());
        ::close(fd);
        if (n < 0) {
            skip(store::errno_text(errno));
            continue;
        }
        text.resize(static_cast<std::size_t>(n));
        auto rec = parse_record(text);
        if (!rec) {
            skip("not a host record");
            continue;
        }
        rec->file = path;
        if (!alive(*rec)) {
            // The host died without cleaning up: its record and socket go.
            ::unlink(path.c_str());
            if (rec->socket.rfind(dir + "/", 0) == 0) ::unlink(rec->socket.c_str());
            continue;
        }
        out.push_back(std::move(*rec));
    }
    ::closedir(d);
    std::sort(out.begin(), out.end(), [](const HostRecord& a, const HostRecord& b) {
        return a.start_ms != b.start_ms ? a.start_ms > b.start_ms : a.pid > b.pid;
    });
    return out;
}

const HostRecord* host_for_directory(const std::vector<HostRecord>& hosts, const std::string& dir) {
    const std::string where = resolved(dir);
    const HostRecord* best = nullptr;
    std::size_t best_len = 0;
    std::int64_t best_start = 0;
    for (const auto& h : hosts) {
        for (const auto& f : h.folders) {
            std::string folder = resolved(f.path);
            if (!holds(folder, where)) continue;
            if (!best || folder.size() > best_len || (folder.size() == best_len && h.start_ms > best_start)) {
                best = &h;
                best_len = folder.size();
                best_start = h.start_ms;
            }
        }
    }
    return best;
}

Result<FoundHost> find_host(const std::string& dir, const std::string& socket_hint, bool include_waiting) {
    if (!socket_hint.empty()) return FoundHost{socket_hint, "$ASKHOST_SOCKET", std::nullopt};
    auto registry = socket_directory();
    if (!registry) return Error::failed("no registry: " + registry.error().message, registry.error().path);
    auto hosts = list_hosts(*registry);
    if (!include_waiting) std::erase_if(hosts, [](const HostRecord& r) { return !r.takes_asks(); });
    const HostRecord* h = host_for_directory(hosts, dir);
    if (!h)
        return Error::failed("no askhost has a workspace holding " + dir + " (" + std::to_string(hosts.size()) +
                             " running, registry " + *registry + ")");
    std::string folder;
    std::size_t len = 0;
    const std::string where = resolved(dir);
    for (const auto& f : h->folders) {
        std::string p = resolved(f.path);
        if (holds(p, where) && p.size() >= len) {
            folder = f.path;
            len = p.size();
        }
    }
    return FoundHost{h->socket, "workspace " + folder, *h};
}

std::optional<std::pair<long, std::string>> running_web_server(const std::string& record_file) {
    auto text = store::read_whole(record_file);
    if (text.status != store::FileText::Status::Ok) return std::nullopt;
    rapidjson::Document doc;
    if (json::parse(doc, text.data) || !doc.IsObject()) return std::nullopt;
    const auto* pid = json::member(doc, "pid");
    const auto* start = json::member(doc, "processStart");
    if (!pid || !pid->IsInt64() || pid->GetInt64() <= 0 || !start || !start->IsUint64()) return std::nullopt;
    auto stat = read_proc_stat(static_cast<pid_t>(pid->GetInt64()));
    if (!stat || stat->start_ticks != start->GetUint64()) return std::nullopt;
    std::string url = json::string_of(doc, "url");
    if (url.empty()) return std::nullopt;
    return std::make_pair(static_cast<long>(pid->GetInt64()), url);
}

}  // namespace askhost
