package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.util.List;
import java.util.Optional;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/** {@code project add | list | remove}. Folders are never created, changed or deleted. */
@Component
class ProjectCommands implements CommandGroup {

    private final Projects projects;

    ProjectCommands(Projects projects) {
        this.projects = projects;
    }

    @Command(
            name = "project add",
            group = "Projects",
            description = "Add an existing folder as a project",
            help =
                    "project add <path> [--name NAME]\n  Adds the directory (relative paths resolve against the console's working directory;"
                            + " it must be canonical, not a link) with one default workspace. Nothing in the folder is created or changed.")
    public String add(
            @Argument(index = 0, description = "path") String path,
            @Option(longName = "name", description = "display name") String name,
            CommandContext context) {
        Project project = projects.add(
                Caller.of(context).resolve(Text.required(path, "path")),
                Optional.of(name).filter(n -> !n.isBlank()));
        String added = "added project " + project.id() + " '" + project.name() + "' at " + project.root();
        // N11: the broker's own launcher inside the project would run what its shells write
        Optional<String> warning =
                dev.lomicontrol.core.LauncherCheckout.warningForThisLauncher(List.of(project.root()));
        return warning.map(text -> added + "\n" + text).orElse(added);
    }

    @Command(
            name = "project list",
            group = "Projects",
            description = "List projects",
            help =
                    "project list\n  Every project the admin added: id, name, folder, when it was added, its workspaces.")
    public String list() {
        List<Project> all = projects.list();
        if (all.isEmpty()) {
            return "no projects; add one with: project add <path>";
        }
        Table table = new Table("ID", "NAME", "ROOT", "ADDED", "WORKSPACES");
        all.forEach(p -> table.row(
                p.id(),
                p.name(),
                p.root(),
                Text.time(p.addedAt()),
                String.join(
                        ",", p.workspaces().stream().map(w -> w.id().value()).toList())));
        return table.toString();
    }

    @Command(
            name = "project remove",
            group = "Projects",
            description = "Remove a project from the broker (needs --confirm; the folder stays)",
            completionProvider = "projectCompletions",
            help =
                    "project remove <id|name> --confirm\n  Removes the project and its workspaces from the broker. The folder on disk is"
                            + " never deleted or changed. Refused without --confirm.")
    public String remove(
            @Argument(index = 0, description = "id|name") String idOrName,
            @Option(longName = "confirm", description = "really remove", defaultValue = "false") boolean confirm) {
        Project project = projects.find(Text.required(idOrName, "id|name"))
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + idOrName));
        Text.requireConfirm(
                confirm,
                "removing project " + project.id() + " '" + project.name()
                        + "' ends agents' access to it (the folder stays)");
        projects.remove(project.id());
        return "removed project " + project.id() + " '" + project.name() + "'; the folder " + project.root()
                + " was not touched";
    }
}
