// The tasks extension (io.modelcontextprotocol/tasks) as `askhost mcp` keeps it: one JSON file per
// task under $XDG_STATE_HOME/askhost/mcp-tasks, written before the task is handed out, so that any
// askhost mcp process (a reconnected client runs a new one) answers tasks/get for it. The question
// itself is held by one live process, the task's owner; a task whose owner is gone is asked again
// by the next process asked about it (docs/mcp.md, "Tasks").
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace askhost::mcp {

constexpr std::string_view kTasksExtension = "io.modelcontextprotocol/tasks";

struct TaskRecord {
    std::string id;
    std::string status = "working";  // working, input_required, completed, cancelled, failed
    std::string status_message;
    std::int64_t created_ms = 0, updated_ms = 0;
    std::int64_t ttl_ms = 0;      // from created_ms: then the record is deleted
    std::int64_t expires_ms = 0;  // when a question still unanswered ends as timed out (0: never)
    std::string arguments;        // the call's questions as tool arguments (JSON): to ask them again
    std::string client_name;
    std::string input_requests;  // the inputRequests object (JSON) while input_required
    int input_round = 0;         // the last input request's number: keys are unique over the task's life
    std::string result;          // the tools/call result (JSON) once completed
    long owner_pid = 0;          // the askhost mcp process that holds the question
    std::string owner_start;     // its start time (/proc/PID/stat): a pid used again is not the owner

    bool terminal() const { return status == "completed" || status == "cancelled" || status == "failed"; }
};

std::string task_file_json(const TaskRecord& r);
std::optional<TaskRecord> task_from_file(std::string_view text);
// The task as the client sees it: CreateTaskResult (result_type "task") or tasks/get's DetailedTask
// ("complete"); `meta` is the result's _meta members (JSON text without braces), or "".
std::string task_result_json(const TaskRecord& r, std::string_view result_type, std::int64_t poll_ms,
                             std::string_view meta);

// A process's start time as /proc gives it, "" when there is no such process.
std::string process_start(long pid);
// Whether the task's owner still runs.
bool owner_alive(const TaskRecord& r);

class TaskStore {
public:
    // $XDG_STATE_HOME/askhost/mcp-tasks (or ~/.local/state/...), "" with neither set.
    static std::filesystem::path default_dir();
    explicit TaskStore(std::filesystem::path dir) : dir_(std::move(dir)) {}

    bool usable() const { return !dir_.empty(); }
    // 128 random bits in hex: an unguessable handle, and the file's name.
    static std::string new_id();
    static bool valid_id(std::string_view id);

    // Written (atomically, fsynced) before the task is handed out.
    Status create(const TaskRecord& r);
    std::optional<TaskRecord> load(const std::string& id) const;
    // Reads, changes and writes one record under the folder's lock (askhost mcp processes take
    // turns); `change` returns false to write nothing. The record as it is after, if there is one.
    std::optional<TaskRecord> update(const std::string& id, const std::function<bool(TaskRecord&)>& change);
    void remove(const std::string& id);
    // Deletes every record whose ttl has lapsed.
    void sweep(std::int64_t now_ms);

private:
    std::filesystem::path file(const std::string& id) const { return dir_ / (id + ".json"); }
    std::filesystem::path dir_;
};

}  // namespace askhost::mcp
