#include "store/long_answers.hpp"

#include <filesystem>

#include "store/fs_util.hpp"

namespace askhost::store {

std::string fit_long_answers(const Ask& ask, Outcome& outcome) {
    if (ask.profile != Profile::Strict || outcome.kind != OutcomeKind::Answered) return {};
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base = !ask.cwd.empty() ? fs::path(ask.cwd) : fs::current_path(ec);
    const fs::path dir = base / ".askhost" / "answers";
    const std::string stamp = std::to_string(now_ms());
    std::string said;
    std::size_t n = 0;
    const std::size_t cut = fit_result_cap(outcome, [&](std::size_t question, std::string_view whole) -> std::string {
        const fs::path file =
            dir / (ask.id + "-" + stamp + "-q" + std::to_string(question + 1) + "-" + std::to_string(++n) + ".txt");
        if (auto err = atomic_write(file, whole, 0600)) {
            said += " (question " + std::to_string(question + 1) + ": not saved: " + err->message + ")";
            return {};
        }
        mark_askhost_folder(dir.parent_path());
        said += " " + file.string();
        return file.string();
    });
    if (!cut) return {};
    return "answers longer than the agent's result may hold (" + std::to_string(Limits::max_result_bytes) +
           " bytes): the agent gets the first " + std::to_string(kKeptBytes) + " bytes of " + std::to_string(cut) +
           (cut == 1 ? " answer" : " answers") + " and where the whole is:" + said;
}

}  // namespace askhost::store
