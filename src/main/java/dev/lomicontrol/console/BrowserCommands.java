package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.util.List;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * {@code browser origins list | revoke}: the web origins the admin approved per project (approving
 * a {@code lomi_browser_open} decision adds one). A revocation applies to the next document or
 * redirect a browser of that project requests; open pages stay where they are.
 */
@Component
class BrowserCommands implements CommandGroup {

    private final BrowserOrigins origins;
    private final Projects projects;

    BrowserCommands(BrowserOrigins origins, Projects projects) {
        this.origins = origins;
        this.projects = projects;
    }

    @Command(
            name = "browser origins list",
            group = "Browser",
            description = "List the browser origins approved per project",
            help =
                    "browser origins list [--project ID|NAME] [--json]\n  Each approved origin: project, origin (scheme://host[:port]), when, and through"
                            + " which decision. --json: one JSON document.")
    public String list(
            @Option(longName = "project", description = "only this project (id or name)") String project,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        List<BrowserOrigins.Approved> all = origins.list();
        if (project != null && !project.isBlank()) {
            Project only = find(project);
            all = all.stream().filter(a -> a.project().equals(only.id())).toList();
        }
        if (json) {
            return ConsoleJson.write(new ConsoleJson.BrowserOrigins(all.stream()
                    .map(a -> new ConsoleJson.BrowserOrigin(
                            a.project().value(), a.origin(), a.approvedAt().toString(), a.approvedBy()))
                    .toList()));
        }
        if (all.isEmpty()) {
            return "no browser origins are approved" + (project == null || project.isBlank() ? "" : " for " + project)
                    + "; an agent's lomi_browser_open of a new origin asks for one (decision list)";
        }
        Table table = new Table("PROJECT", "ORIGIN", "APPROVED", "BY");
        all.forEach(a -> table.row(a.project(), a.origin(), Text.time(a.approvedAt()), a.approvedBy()));
        return table.toString();
    }

    @Command(
            name = "browser origins revoke",
            group = "Browser",
            description = "Revoke a browser origin of a project",
            completionProvider = "projectCompletions",
            help =
                    "browser origins revoke <project> <origin>\n  Browsers of that project may no longer load documents from the origin (checked on each"
                            + " document and redirect); opening it again needs a new decision.")
    public String revoke(
            @Argument(index = 0, description = "project id|name") String project,
            @Argument(index = 1, description = "origin") String origin) {
        Project target = find(Text.required(project, "project"));
        String exact = Text.required(origin, "origin").strip();
        if (!origins.revoke(target.id(), exact)) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    exact + " is not an approved origin of project " + target.id() + " (see browser origins list)");
        }
        return "revoked " + exact + " for project " + target.id() + " '" + target.name() + "'";
    }

    private Project find(String idOrName) {
        return projects.find(idOrName)
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + idOrName));
    }
}
