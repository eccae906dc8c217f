package dev.lomicontrol.pairing;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scope names a grant can hold (phase 1 domains) and the dependencies enforced at approval,
 * after the reference implementation: {@code workspace.read} is always required, and e.g.
 * {@code files.mutate} needs {@code files.read}.
 */
public final class Scopes {

    /**
     * Creating a terminal while the admin has the sandbox off: such a shell can act as the admin,
     * so no default grant (flagless approval, YOLO) holds this scope; only {@code --scopes} names it.
     */
    public static final String TERMINAL_UNSANDBOXED = "terminal.unsandboxed";

    private static final Set<String> NEVER_DEFAULT = Set.of(TERMINAL_UNSANDBOXED);

    private static final Map<String, List<String>> REQUIRES = new LinkedHashMap<>();
    /**
     * The scopes of the declared tools this host does not serve yet (Android; they
     * answer HOST_UNQUALIFIED), named and chained as the reference names them. A grant may name them,
     * but they are in no default or full grant ({@link #all()}) until their tools are implemented.
     */
    private static final Map<String, List<String>> NOT_YET_SERVED = new LinkedHashMap<>();

    static {
        scope("workspace.read");
        scope("workspace.write");
        scope("workspace.close", "workspace.write", "panel.close");
        scope("project.open", "workspace.write", "panel.create");
        scope("project.close", "workspace.close");
        scope("panel.create");
        scope("panel.focus");
        scope("panel.close");
        scope("panel.move", "workspace.write");
        scope("terminal.read");
        scope("terminal.execute");
        scope(TERMINAL_UNSANDBOXED, "terminal.read", "terminal.execute");
        scope("files.read");
        scope("files.mutate", "files.read");
        scope("files.create", "files.mutate");
        scope("files.rename", "files.mutate");
        scope("files.trash", "files.mutate");
        scope("editor.read", "files.read");
        scope("editor.write", "editor.read");
        scope("git.read", "files.read");
        scope("git.write", "git.read");
        scope("git.execute", "git.read");
        scope("git.network", "git.read", "git.write", "git.execute");
        scope("git.push", "git.read", "git.write", "git.execute", "git.network");
        scope("git.pull", "git.read", "git.write", "git.execute", "git.network");
        scope("git.discard", "git.read", "git.write", "git.execute");
        scope("artifact.import", "files.read");
        scope("artifact.export", "files.read", "files.create", "files.mutate");
        scope("settings.open");
        scope("settings.read");
        scope("settings.write", "settings.read");
        scope("browser.navigate");
        scope("browser.read");
        scope("browser.interact");
        scope("browser.capture_composite");
        scope("browser.upload", "browser.read", "browser.interact");
        scope("browser.download", "browser.read");

        scope("chat.read");
        scope("chat.open", "chat.read", "panel.create", "panel.focus");
        scope("chat.create", "chat.open");
        scope("chat.draft", "chat.read");
        scope("chat.send", "chat.read");
        scope("chat.stop", "chat.read");
        scope("chat.export", "chat.read");
        later("android.read");
        later("android.control", "android.read");
        later("android.setup", "android.read");
        later("android.manage", "android.read");
        later("android.launch", "android.control");
        later("android.logs", "android.control");
        later("android.interact", "android.control");
        later("android.observe", "android.control");
        later("android.capture", "android.control");
        later("android.install", "android.control");
    }

    private Scopes() {}

    private static void scope(String name, String... requires) {
        REQUIRES.put(name, List.of(requires));
    }

    private static void later(String name, String... requires) {
        NOT_YET_SERVED.put(name, List.of(requires));
    }

    /** The full grant of a flagless approval and of YOLO: every scope except those no default grant carries. */
    public static Set<String> all() {
        Set<String> all = new TreeSet<>(REQUIRES.keySet());
        all.removeAll(NEVER_DEFAULT);
        return all;
    }

    /** The scopes of the declared tools this host answers HOST_UNQUALIFIED (Android): in no default grant. */
    public static Set<String> notYetServed() {
        return new TreeSet<>(NOT_YET_SERVED.keySet());
    }

    /** Every scope name a grant may hold: {@link #all()}, those no default grant carries ({@link #TERMINAL_UNSANDBOXED}) and {@link #notYetServed()}. */
    public static Set<String> known() {
        Set<String> known = new TreeSet<>(REQUIRES.keySet());
        known.addAll(NOT_YET_SERVED.keySet());
        return known;
    }

    /** Checks names and dependencies; INVALID_ARGUMENT lists what is unknown or missing. */
    public static Set<String> validate(Collection<String> requested) {
        Set<String> scopes = new TreeSet<>(requested);
        List<String> problems = new ArrayList<>();
        if (!scopes.contains("workspace.read")) {
            problems.add("workspace.read is always required");
        }
        for (String scope : scopes) {
            List<String> needs = REQUIRES.containsKey(scope) ? REQUIRES.get(scope) : NOT_YET_SERVED.get(scope);
            if (needs == null) {
                problems.add("unknown scope " + scope);
                continue;
            }
            for (String need : needs) {
                if (!scopes.contains(need)) {
                    problems.add(scope + " needs " + need);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, String.join("; ", problems));
        }
        return scopes;
    }
}
