#include "compact_hook.hpp"

#include "claude_transcript.hpp"
#include "core/fd_io.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "store/session_summary.hpp"

namespace askhost::claude {

namespace {

constexpr std::size_t kMaxTranscript = 256u << 20;  // read at most the last 256 MiB

}  // namespace

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
