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
        scope("android.read");
        scope("android.control", "android.read");
        scope("android.setup", "android.read");
        scope("android.manage", "android.read");
        scope("android.launch", "android.control");
        scope("android.logs", "android.control");
        scope("android.interact", "android.control");
        scope("android.observe", "android.control");
        scope("android.capture", "android.control");
        scope("android.install", "android.control");
    }

    private Scopes() {}

    private static void scope(String name, String... requires) {
        REQUIRES.put(name, List.of(requires));
    }

    /**
     * The full grant of a flagless approval and of YOLO: every scope except those no default grant
     * carries — the android.* scopes included, with every Android device and package
     * ({@link AndroidGrant#EVERYTHING}).
     */
    public static Set<String> all() {
        Set<String> all = new TreeSet<>(REQUIRES.keySet());
        all.removeAll(NEVER_DEFAULT);
        return all;
    }

    /** Every scope name a grant may hold: {@link #all()} and those no default grant carries ({@link #TERMINAL_UNSANDBOXED}). */
    public static Set<String> known() {
        return new TreeSet<>(REQUIRES.keySet());
    }

    /** Checks names and dependencies; INVALID_ARGUMENT lists what is unknown or missing. */
    public static Set<String> validate(Collection<String> requested) {
        Set<String> scopes = new TreeSet<>(requested);
        List<String> problems = new ArrayList<>();
        if (!scopes.contains("workspace.read")) {
            problems.add("workspace.read is always required");
        }
        for (String scope : scopes) {
            List<String> needs = REQUIRES.get(scope);
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
