// Whether the terminal can show the dialog, read from its terminfo entry without drawing anything.
// Its own file: term.h defines a macro for every capability (bell, lines, columns ...), which
// would break the dialog's code.
#include "frontends/tui/terminal_dialog.hpp"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#define NCURSES_NOMACROS 1
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#else
#include <curses.h>
#include <term.h>
#endif
#include "frontends/tui/curses_api.hpp"

namespace askhost {

bool TerminalDialog::terminal_free() {
    if (const char* e = std::getenv("CLAUDE_CODE_ENTRYPOINT"); e && std::string_view(e) == "cli") return false;
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return false;
    termios t{};
    const bool free = ::tcgetattr(fd, &t) == 0 && (t.c_lflag & ICANON) && ::tcgetpgrp(fd) == ::getpgrp();
    ::close(fd);
    return free && available();
}

Status TerminalDialog::check_terminal(const std::string& tty_path) {
    // Whoever cannot show the dialog was asked for something this terminal cannot do (exit 2).
    auto no = [&](std::string why) { return Error{Error::Kind::Usage, std::move(why), tty_path}; };
    const int fd = ::open(tty_path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return no("no terminal (" + tty_path + ")");
    if (!::isatty(fd)) {
        ::close(fd);
        return no(tty_path + " is not a terminal");
    }
    const char* term = std::getenv("TERM");
    if (!term || !*term) {
        ::close(fd);
        return no("TERM is not set");
    }
    // The library the dialog draws with, loaded now that a dialog may be wanted.
    if (std::string why; !curses::load(&why)) {
        ::close(fd);
        return no(why + ": the terminal dialog needs ncurses (libncursesw6)");
    }
    // The terminal's description, as the dialog will read it, without drawing anything.
    TERMINAL* saved = cur_term;
    int err = 0;
    Status why;
    if (::setupterm(const_cast<char*>(term), fd, &err) != OK) {
        why = no(std::string("unknown terminal type TERM=") + term);
    } else {
        const char* cup = ::tigetstr(const_cast<char*>("cup"));
        if (cup == nullptr || cup == reinterpret_cast<char*>(-1))
            why = no(std::string("TERM=") + term + " cannot move the cursor");
        ::del_curterm(::set_curterm(saved));
    }
    ::close(fd);
    return why;
}

}  // namespace askhost
