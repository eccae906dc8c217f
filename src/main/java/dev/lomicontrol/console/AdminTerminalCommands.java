package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.Visible;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.Terminals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * {@code terminal new}: a terminal of the admin's own in a project — a shell started like an agent's
 * (the project's sandbox, the terminal settings' profile and scrollback) in a new panel of the
 * project's first workspace, owned by no session and held by no lease. Agents see it in
 * lomi_panel_list (ownership {@code none}) and may ask for its input with lomi_panel_control, which
 * the admin approves or rejects ({@code decision list}).
 */
@Component
class AdminTerminalCommands implements CommandGroup {

    static final String DEFAULT_TITLE = "admin";
    static final int COLUMNS = 120;
    static final int ROWS = 32;

    private final Terminals terminals;
    private final Layout layout;
    private final Projects projects;
    private final Settings settings;

    AdminTerminalCommands(Terminals terminals, Layout layout, Projects projects, Settings settings) {
        this.terminals = terminals;
        this.layout = layout;
        this.projects = projects;
        this.settings = settings;
    }

    @Command(
            name = "terminal new",
            group = "Terminal",
            description = "Open a terminal of your own in a project (agents may ask to claim it)",
            help =
                    "terminal new [--project ID|NAME] [--title TITLE] [--json]\n  A shell at the project's root, sandboxed like an agent's,"
                            + " in a new panel of the project's first workspace\n  (default project: the one holding the console's"
                            + " working directory; default title: admin). No agent owns it or\n  holds its input; an agent may ask for"
                            + " it with lomi_panel_control {action: claim}, which shows in decision list.\n  --json: one JSON document.")
    public String create(
            @Option(longName = "project", description = "the project (id or name)") String project,
            @Option(longName = "title", description = "the panel's title") String title,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json,
            CommandContext context) {
        Project target = blank(project)
                .map(this::named)
                .orElseGet(() -> holding(Caller.of(context).cwd()));
        String name = blank(title).orElse(DEFAULT_TITLE);
        requireDisplayName(name);
        Workspace workspace = target.workspaces().stream()
                .findFirst()
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "project " + target.id() + " has no workspace (an agent deleted them all); an agent can create"
                                + " one with lomi_workspace_create"));
        String profile = settings.terminal().defaultProfile();
        terminals.requireStartable(profile);
        Path root = target.root();
        Opened opened = terminals.startPlaced(
                profile, root, root, COLUMNS, ROWS, settings.terminal().scrollbackBytes(), terminal -> {
                    Layout.PlacedPanel placed = layout.addTerminalPanel(
                            OptionalLong.empty(), workspace.id(), name, terminal.id(), Optional.empty(), profile, ".");
                    return new Opened(placed, terminal.id());
                });
        String panel = opened.placed().panel().id();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.TerminalCreated(
                    panel,
                    opened.placed().tabId(),
                    workspace.id().value(),
                    target.id().value(),
                    opened.terminal(),
                    name,
                    profile,
                    terminals.sandbox().enabled(),
                    Long.toString(opened.placed().revision())));
        }
        return "opened terminal " + opened.terminal() + " (" + profile
                + (terminals.sandbox().enabled() ? ", sandboxed" : ", NOT sandboxed: the sandbox is off")
                + ") in panel "
                + panel + " '" + Visible.line(name) + "'\n  workspace " + workspace.id() + " of project " + target.id()
                + " '" + Visible.line(target.name()) + "' (domainRevision "
                + opened.placed().revision() + ")"
                + "\n  watch it: terminal watch " + panel + "    type in it: terminal attach " + panel
                + "\n  an agent's lomi_panel_control claim of it shows in: decision list";
    }

    /** What {@code terminal new} placed: its panel and the terminal behind it. */
    private record Opened(Layout.PlacedPanel placed, String terminal) {}

    private Project named(String idOrName) {
        return projects.find(idOrName)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND, "no project " + idOrName + " (see project list)"));
    }

    /** The innermost project whose folder holds {@code cwd} (as given or as its real path); else a usage error. */
    private Project holding(Path cwd) {
        Path real = real(cwd);
        return projects.list().stream()
                .filter(p -> cwd.startsWith(p.root()) || real.startsWith(p.root()))
                .max(Comparator.comparingInt(p -> p.root().getNameCount()))
                .orElseThrow(() -> new UsageException("the console's working directory " + cwd
                        + " lies in no project; name one with --project ID|NAME" + " (project list)"));
    }

    private static Path real(Path path) {
        try {
            return Files.exists(path) ? path.toRealPath() : path;
        } catch (IOException e) {
            return path;
        }
    }

    /** A title as agents' titles are: 1-256 code points, not blank, no control characters; else a usage error. */
    static void requireDisplayName(String title) {
        if (title.codePointCount(0, title.length()) > 256
                || title.codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL)) {
            throw new UsageException("--title is 1-256 characters without control characters");
        }
    }

    private static Optional<String> blank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
