#include "mcp_tasks.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>

#include <rapidjson/document.h>

#include "core/proc_stat.hpp"
#include "json/json_codec.hpp"
#include "store/fs_util.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost::mcp {

namespace fs = std::filesystem;

namespace {

std::string text_of(const rapidjson::Value& o, const char* key) {
    auto m = o.FindMember(key);
    return m != o.MemberEnd() && m->value.IsString() ? std::string(m->value.GetString(), m->value.GetStringLength())
                                                     : std::string();
}

std::int64_t int_of(const rapidjson::Value& o, const char* key) {
    auto m = o.FindMember(key);
    return m != o.MemberEnd() && m->value.IsInt64() ? m->value.GetInt64() : 0;
}

// A member kept as JSON text (an object), "" when absent.
std::string json_of(const rapidjson::Value& o, const char* key) {
    auto m = o.FindMember(key);
    return m != o.MemberEnd() && m->value.IsObject() ? askhost::to_json(m->value) : std::string();
}

}  // namespace

std::string task_file_json(const TaskRecord& r) {
    rapidjson::StringBuffer buf;
    json::Writer w(buf);
    {
        json::ObjectWriter o(w);
        o.field("taskId", r.id).field("status", r.status).field("statusMessage", r.status_message);
        o.field("createdMs", r.created_ms).field("updatedMs", r.updated_ms).field("ttlMs", r.ttl_ms);
        o.field("expiresMs", r.expires_ms).field("clientName", r.client_name).field("inputRound", r.input_round);
        o.field("ownerPid", static_cast<std::int64_t>(r.owner_pid)).field("ownerStart", r.owner_start);
        if (!r.arguments.empty()) o.field("arguments", json::RawJson{r.arguments});
        if (!r.input_requests.empty()) o.field("inputRequests", json::RawJson{r.input_requests});
        if (!r.result.empty()) o.field("result", json::RawJson{r.result});
    }
    return std::string(buf.GetString(), buf.GetSize());
}

std::optional<TaskRecord> task_from_file(std::string_view text) {
    rapidjson::Document d;
    d.Parse(text.data(), text.size());
    if (d.HasParseError() || !d.IsObject()) return std::nullopt;
    TaskRecord r;
    r.id = text_of(d, "taskId");
    r.status = text_of(d, "status");
    r.status_message = text_of(d, "statusMessage");
    r.created_ms = int_of(d, "createdMs");
    r.updated_ms = int_of(d, "updatedMs");
    r.ttl_ms = int_of(d, "ttlMs");
    r.expires_ms = int_of(d, "expiresMs");
    r.client_name = text_of(d, "clientName");
    r.input_round = static_cast<int>(int_of(d, "inputRound"));
    r.owner_pid = static_cast<long>(int_of(d, "ownerPid"));
    r.owner_start = text_of(d, "ownerStart");
    r.arguments = json_of(d, "arguments");
    r.input_requests = json_of(d, "inputRequests");
    r.result = json_of(d, "result");
    if (r.id.empty() || r.status.empty()) return std::nullopt;
    return r;
}

std::string task_result_json(const TaskRecord& r, std::string_view result_type, std::int64_t poll_ms,
                             std::string_view meta) {
    rapidjson::StringBuffer buf;
    json::Writer w(buf);
    {
        json::ObjectWriter o(w);
        o.field("resultType", result_type).field("taskId", r.id).field("status", r.status);
        if (!r.status_message.empty()) o.field("statusMessage", r.status_message);
        o.field("createdAt", store::iso8601_utc(r.created_ms)).field("lastUpdatedAt", store::iso8601_utc(r.updated_ms));
        o.field("ttlMs", r.ttl_ms).field("pollIntervalMs", poll_ms);
        if (r.status == "input_required") o.field("inputRequests", json::RawJson{r.input_requests});
        if (r.status == "completed") o.field("result", json::RawJson{r.result});
        if (r.status == "failed")
            o.object("error", [](json::ObjectWriter& e) {
                e.field("code", -32603).field("message", "the task's question could not be asked");
            });
        if (!meta.empty()) o.field("_meta", json::RawJson{"{" + std::string(meta) + "}"});
    }
    return std::string(buf.GetString(), buf.GetSize());
}

std::string process_start(long pid) {
    if (pid <= 0) return {};
    auto stat = read_proc_stat(static_cast<pid_t>(pid));
    return stat ? std::to_string(stat->start_ticks) : std::string();
}

bool owner_alive(const TaskRecord& r) { return !r.owner_start.empty() && process_start(r.owner_pid) == r.owner_start; }

fs::path TaskStore::default_dir() {
    const char* xdg = std::getenv("XDG_STATE_HOME");
    if (xdg && xdg[0] == '/') return fs::path(xdg) / "askhost" / "mcp-tasks";
    const char* home = std::getenv("HOME");
    if (home && home[0] == '/') return fs::path(home) / ".local" / "state" / "askhost" / "mcp-tasks";
    return {};
}

std::string TaskStore::new_id() {
    std::random_device random;
    std::string out;
    for (int i = 0; i < 4; ++i) {
        char part[9];
        std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(random()));
        out += part;
    }
    return out;
}

bool TaskStore::valid_id(std::string_view id) {
    if (id.size() != 32) return false;
    for (char c : id)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

Status TaskStore::create(const TaskRecord& r) {
    if (!usable()) return Error::failed("no folder for tasks (neither XDG_STATE_HOME nor HOME is set)");
    if (auto e = store::make_dirs(dir_)) return e;
    store::DirLock lock(dir_);
    return store::atomic_write(file(r.id), task_file_json(r));
}

std::optional<TaskRecord> TaskStore::load(const std::string& id) const {
    if (!usable() || !valid_id(id)) return std::nullopt;
    auto text = store::read_whole(file(id));
    if (text.status != store::FileText::Status::Ok) return std::nullopt;
    auto r = task_from_file(text.data);
    if (!r || r->id != id) return std::nullopt;
    return r;
}

std::optional<TaskRecord> TaskStore::update(const std::string& id, const std::function<bool(TaskRecord&)>& change) {
    if (!usable() || !valid_id(id)) return std::nullopt;
    store::DirLock lock(dir_);
    auto r = load(id);
    if (!r) return std::nullopt;
    if (change(*r)) (void)store::atomic_write(file(id), task_file_json(*r));
    return r;
}

void TaskStore::remove(const std::string& id) {
    if (!usable() || !valid_id(id)) return;
    std::error_code ignored;
    fs::remove(file(id), ignored);
}

void TaskStore::sweep(std::int64_t now_ms) {
    if (!usable()) return;
    std::error_code ec;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() != 37 || name.substr(32) != ".json") continue;  // temporary files start with '.'
        const std::string id = name.substr(0, 32);
        auto r = load(id);
        if (r && r->created_ms + r->ttl_ms < now_ms) remove(id);
    }
}

}  // namespace askhost::mcp
