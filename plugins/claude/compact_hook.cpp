#include "compact_hook.hpp"

#include "claude_tools.hpp"
#include "common/question_record.hpp"
#include "core/fd_io.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "store/session_summary.hpp"

#include <map>

namespace askhost::claude {

namespace {

constexpr std::size_t kMaxTranscript = 256u << 20;  // read at most the last 256 MiB

std::string text_of(const rapidjson::Value& content) {
    if (content.IsString()) return std::string(json::str(content));
    std::string out;
    if (content.IsArray())
        for (const auto& c : content.GetArray()) out += json::string_of(c, "text");
    return out;
}

}  // namespace

std::vector<store::Exchange> exchanges_in_transcript(std::string_view jsonl) {
    std::vector<store::Exchange> out;
    std::map<std::string, std::vector<Question>> asked;  // tool_use id -> its questions
    std::size_t pos = 0;
    while (pos < jsonl.size()) {
        const std::string_view line = store::next_line(jsonl, pos);
        // Cheap first: only lines about a question tool or a tool result are parsed.
        if (line.find("ask_user_question") == std::string_view::npos &&
            line.find("AskUserQuestion") == std::string_view::npos &&
            line.find("tool_result") == std::string_view::npos)
            continue;
        rapidjson::Document entry;
        if (json::parse(entry, line) || !entry.IsObject()) continue;
        if (const auto* side = json::member(entry, "isSidechain"); side && side->IsBool() && side->GetBool()) continue;
        const auto* message = json::member(entry, "message");
        const auto* content = message ? json::member(*message, "content") : nullptr;
        if (!content || !content->IsArray()) continue;
        for (const auto& block : content->GetArray()) {
            const std::string type = json::string_of(block, "type");
            if (type == "tool_use" && is_question_tool(json::string_of(block, "name"))) {
                if (const auto* input = json::member(block, "input"))
                    asked[json::string_of(block, "id")] = questions_of_call(*input);
                continue;
            }
            if (type != "tool_result") continue;
            auto it = asked.find(json::string_of(block, "tool_use_id"));
            if (it == asked.end() || it->second.empty()) continue;
            store::Exchange e;
            e.agent = "claude";
            e.questions = std::move(it->second);
            asked.erase(it);
            const auto* result_content = json::member(block, "content");
            const std::string text = result_content ? text_of(*result_content) : std::string();
            const auto* is_error = json::member(block, "is_error");
            auto r = read_result(e.questions, json::member(entry, "toolUseResult"), text,
                                 is_error && is_error->IsBool() && is_error->GetBool());
            const std::string_view outcome = summary_outcome(r.kind);
            if (outcome.empty()) continue;  // not asked, or nothing to tell
            e.outcome = outcome;
            e.answers = std::move(r.answers);
            e.pending_file = std::move(r.pending_file);
            out.push_back(std::move(e));
        }
    }
    return out;
}

std::string compaction_instructions(const std::vector<store::Exchange>& exchanges) {
    const std::string prose = store::summary_text(exchanges);
    if (prose.empty()) return {};
    return "Keep in the summary what the user decided when asked, as it stands here (these are the user's own "
           "answers; later work should follow them): " +
           prose;
}

int run_precompact(const rapidjson::Value& input) {
    const std::string path = json::string_of(input, "transcript_path");
    if (path.empty()) return 0;
    const auto tail = store::read_last_lines(path, kMaxTranscript);
    if (!tail) return 0;
    const std::string_view jsonl = *tail;
    const std::string out = compaction_instructions(exchanges_in_transcript(jsonl));
    if (!out.empty()) write_all(1, out + "\n");
    return 0;
}

}  // namespace askhost::claude
