// A question with nobody to show it to, from an agent that runs in a tmux pane: the dialog in a
// tmux popup over that pane (docs/tmux.md). Finding the pane does not rely on the agent's
// environment (Codex gives its MCP server neither TMUX, TMUX_TMPDIR nor a terminal): the nearest
// ancestor process with a terminal is matched against the panes of the tmux servers askhost knows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include "core/error.hpp"

namespace askhost::tmux {

struct Pane {
    std::string server;     // the tmux server's socket
    std::string pane_id;    // %N
    std::string window_id;  // @N
    std::string tty;        // /dev/pts/N
    std::string client;     // a client looking at the pane's window, "" when none is
    int client_width = 0, client_height = 0;
};

// The terminal (/dev/pts/N) of `pid` or its nearest ancestor that has one; "" when none has.
std::string terminal_of_ancestors(pid_t pid);

// The pane showing `tty`, with a client that looks at it if there is one; the servers asked, in
// order, each once: the one `$TMUX` names, the one the nearest ancestor's TMUX names (from the
// environment it started with, a process of this user's), every socket in
// ${TMUX_TMPDIR:-/tmp}/tmux-UID. nullopt when no pane shows that terminal.
std::optional<Pane> pane_for_terminal(const std::string& tty);

// The pane this process's environment names, as tmux sets it in a pane: the server's socket from
// $TMUX (up to its first comma) and $TMUX_PANE; only server and pane_id are set. nullopt outside
// tmux (either unset or empty).
std::optional<Pane> pane_of_environment();

// The pane a popup for this process would open over (its nearest ancestor's terminal's), when
// popups are enabled; nullopt when there is none.
std::optional<Pane> asking_pane();

// Whether a popup can open over the asking pane now: popups are enabled, and a client looks at it.
bool popup_possible();

// Whether popups are wanted: `tmux-popup = false` in $XDG_CONFIG_HOME/askhost/config (default
// ~/.config/askhost/config) turns them off (an environment variable would not reach a server
// under Codex).
bool popups_enabled();

// Runs `command` in a popup on pane.client over the pane, `width` x `height` cells (clipped to
// the client). Returns the pid of the tmux client process that waits for the popup to close (to
// be reaped), or why not.
Result<pid_t> open_popup(const Pane& pane, const std::vector<std::string>& command, int width, int height);

// Tells a pane nobody looks at: a message on the server's clients and the bell in the pane
// (tmux marks its window). The message is shown as message_text makes it.
void notify_pane(const Pane& pane, const std::string& message);

// Text as a tmux message shows it, word for word: agent text made visible as every face shows it
// (visible_text), each '#' doubled, since tmux expands formats there and #(...) runs a command.
std::string message_text(std::string_view text);

// Rows and columns the dialog wants for these question texts (a popup sized to it).
std::pair<int, int> dialog_size(const std::vector<std::string>& lines, int options);

}  // namespace askhost::tmux
