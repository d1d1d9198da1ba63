#include "frontends/editor/host_core.hpp"

#include "core/model/question.hpp"
#include "store/long_answers.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include <unistd.h>

namespace askhost {

namespace {

bool has_folder(const std::vector<WorkspaceFolder>& folders, const std::string& path) {
    return std::any_of(folders.begin(), folders.end(), [&](const WorkspaceFolder& f) { return f.path == path; });
}

}  // namespace

HostCore::HostCore(boost::asio::io_context& io, AgentControl& control)
    : broker_(io),
      hub_(io, broker_, control),
      listener_(io, [this](std::shared_ptr<Connection> c) { hub_.add_client(std::move(c), false); }),
      waiting_flush_(io) {
    hub_.on_workspace_changed = [this] { update_registration(); };
    listener_.on_log = [this](std::string_view m) { log(m); };
    // A strict result keeps within its cap without losing an answer (store/long_answers.hpp).
    broker_.shape_outcome = [this](const Ask& ask, Outcome& o) {
        if (std::string said = store::fit_long_answers(ask, o); !said.empty()) log(said);
    };
    broker_.on_state = [this] {
        hub_.state_changed();
        // The record's waiting count is kept in memory now and reaches the file coalesced, after
        // the answer went back: no disk write on a question's path, and a question answered
        // within the delay costs no write at all (docs/performance.md).
        registration_.set_waiting(static_cast<int>(broker_.pending().size()));
        if (!waiting_flush_armed_) {
            waiting_flush_armed_ = true;
            waiting_flush_.expires_after(kWaitingFlushDelay);
            waiting_flush_.async_wait([this, token = lifetime_.token()](const boost::system::error_code& ec) {
                if (ec || !token) return;
                waiting_flush_armed_ = false;
                registration_.flush();
            });
        }
        if (on_state) on_state();
    };
}

HostCore::~HostCore() {
    lifetime_.end();
    registration_.remove();
}

Status HostCore::listen(const std::string& kind) {
    if (auto err = listener_.listen()) return err;
    hub_.set_socket_path(listener_.path());
    // Agents started anywhere in this host's workspace find it here (askhost mcp, hook, attach).
    if (auto why = registration_.publish(listener_.path(), kind))
        log("cannot register in the host registry: " + why->message);
    update_registration();
    return std::nullopt;
}

void HostCore::add_folder(const std::string& path) {
    char here[PATH_MAX];
    std::string dir = path;
    if (dir.empty() || dir[0] != '/')
        dir = std::string(::getcwd(here, sizeof here) ? here : "") + (dir.empty() ? "" : "/" + dir);
    if (char* real = ::realpath(dir.c_str(), nullptr)) {
        dir = real;
        std::free(real);
    }
    // A folder whose name is not UTF-8 cannot be written in the registry's JSON.
    if (dir.empty() || !utf8_valid(dir) || has_folder(own_folders_, dir)) return;
    own_folders_.push_back(folder_from_path(dir));
    update_registration();
}

void HostCore::update_registration() {
    auto folders = hub_.workspace_folders();
    for (const auto& f : own_folders_)
        if (!has_folder(folders, f.path)) folders.push_back(f);
    auto [name, version] = hub_.primary_client();
    registration_.update(std::move(folders), std::move(name), std::move(version));
}

}  // namespace askhost
