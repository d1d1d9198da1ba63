#define ASKHOST_CURSES_NO_NAMES 1  // the table is filled by these names
#include "frontends/tui/curses_api.hpp"

#include <dlfcn.h>

namespace askhost::curses {

namespace {

// The library's run-time name (its soname): what libncurses-dev's link would have recorded.
constexpr const char* kLibrary = "libncursesw.so.6";

struct Loaded {
    Api api{};
    bool ok = false;
    std::string error;
};

template <typename T>
bool find(void* lib, const char* name, T& into, std::string& error) {
    void* p = ::dlsym(lib, name);
    if (!p) {
        error = std::string(kLibrary) + " has no " + name;
        return false;
    }
    into = reinterpret_cast<T>(p);
    return true;
}

Loaded open_library() {
    Loaded l;
    void* lib = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* why = ::dlerror();
        l.error = std::string("cannot load ") + kLibrary + (why ? std::string(": ") + why : std::string());
        return l;
    }
    Api& a = l.api;
    std::string& e = l.error;
    // (Never closed: the dialog may open again, and ncurses keeps state of its own.)
    l.ok = find(lib, "beep", a.beep, e) && find(lib, "cbreak", a.cbreak, e) && find(lib, "clearok", a.clearok, e) &&
           find(lib, "curs_set", a.curs_set, e) && find(lib, "define_key", a.define_key, e) &&
           find(lib, "delscreen", a.delscreen, e) && find(lib, "doupdate", a.doupdate, e) &&
           find(lib, "endwin", a.endwin, e) && find(lib, "getmaxx", a.getmaxx, e) &&
           find(lib, "getmaxy", a.getmaxy, e) && find(lib, "keypad", a.keypad, e) &&
           find(lib, "newterm", a.newterm, e) && find(lib, "nodelay", a.nodelay, e) &&
           find(lib, "noecho", a.noecho, e) && find(lib, "nonl", a.nonl, e) &&
           find(lib, "resize_term", a.resize_term, e) && find(lib, "set_escdelay", a.set_escdelay, e) &&
           find(lib, "set_term", a.set_term, e) && find(lib, "tigetstr", a.tigetstr, e) &&
           find(lib, "waddnwstr", a.waddnwstr, e) && find(lib, "wattrset", a.wattrset, e) &&
           find(lib, "werase", a.werase, e) && find(lib, "wget_wch", a.wget_wch, e) && find(lib, "wmove", a.wmove, e) &&
           find(lib, "wnoutrefresh", a.wnoutrefresh, e) && find(lib, "setupterm", a.setupterm, e) &&
           find(lib, "set_curterm", a.set_curterm, e) && find(lib, "del_curterm", a.del_curterm, e) &&
           find(lib, "stdscr", a.stdscr, e) && find(lib, "curscr", a.curscr, e) && find(lib, "cur_term", a.cur_term, e);
    return l;
}

const Loaded& loaded() {
    static const Loaded l = open_library();
    return l;
}

}  // namespace

bool load(std::string* error) {
    const Loaded& l = loaded();
    if (!l.ok && error) *error = l.error;
    return l.ok;
}

const Api& api() { return loaded().api; }

}  // namespace askhost::curses
