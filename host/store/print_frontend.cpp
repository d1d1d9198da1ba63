#include "store/print_frontend.hpp"

#include "store/fs_util.hpp"
#include "store/pending_file.hpp"

namespace askhost {

PrintFrontend::PrintFrontend(std::string pending_file, std::string session_id, Log log)
    : pending_file_(std::move(pending_file)), session_id_(std::move(session_id)), log_(std::move(log)) {}

void PrintFrontend::show(const Ask& ask, Done done) {
    namespace fs = std::filesystem;
    const fs::path path(pending_file_);
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    Status error = store::make_dirs(dir, 0700);
    std::size_t open = 0;  // the file's open questions, this ask's among them
    if (!error) {
        store::DirLock lock(dir);  // another askhost may be adding its questions right now
        auto loaded = store::load_pending(path);
        error = store::add_pending_ask(path, loaded, ask, session_id_, log_);
        if (!error) {
            error = store::save_pending(path, loaded.file);
            open = loaded.file.open().size();
        }
    }
    if (error) {
        log_("cannot write the pending-questions file: " + error->message +
             " (--pending-file PATH puts it in a folder you can write)");
        done(Outcome::cancelled("askhost could not write the pending-questions file: " + error->message));
        return;
    }
    const std::size_t n = ask.questions.size();
    log_(std::to_string(n) + (n == 1 ? " question" : " questions") + " pending in " + pending_file_ +
         ": answer with `askhost answer` (`askhost questions` shows them), then run the agent again");
    done(Outcome::pending(pending_file_, open));
}

}  // namespace askhost
