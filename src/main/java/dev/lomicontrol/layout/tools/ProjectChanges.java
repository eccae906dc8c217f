package dev.lomicontrol.layout.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_project_open} (parks for the admin, who approves the canonical folder) and
 * {@code lomi_project_close} (all its workspaces; never deletes the folder).
 */
final class ProjectChanges {

    private final Projects projects;
    private final Layout layout;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final LivePanels live;
    private final LayoutChecks checks;

    ProjectChanges(
            Projects projects,
            Layout layout,
            WorkspaceAccess workspaces,
            OperationRunner runner,
            LivePanels live,
            LayoutChecks checks) {
        this.projects = projects;
        this.layout = layout;
        this.workspaces = workspaces;
        this.runner = runner;
        this.live = live;
        this.checks = checks;
    }

    /** Asks the admin to open a new folder as a project; runs once approved (YOLO approves). */
    Object open(Session session, LayoutSpecs.ProjectOpen in) {
        WorkspaceAccess.Listed anchor = workspaces.resolve(session, in.workspaceId());
        String rawPath = in.projectPath();
        String name = in.name().value();
        long expected = in.expectedRevision().asLong();
        FolderToOpen folder = new FolderToOpen(rawPath);
        ObjectNode plan = JsonNodeFactory.instance.objectNode();
        plan.put("action", "open project");
        plan.put("projectPath", rawPath);
        plan.put("name", name);
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        return runner.afterApproval(
                OperationRunner.Request.of(
                        session, LayoutSpecs.PROJECT_OPEN, in, anchor, rawPath, OptionalLong.of(expected)),
                () -> {
                    checks.requireRevision(expected);
                    Path root = folder.canonical();
                    if (projects.list().stream().anyMatch(p -> p.root().equals(root))) {
                        throw new LomiException(
                                ErrorCode.INVALID_ARGUMENT,
                                rawPath + " is already open as a project; ask the admin to grant it");
                    }
                    if (!session.grant().allProjects()
                            && session.grant().projects().size() >= LayoutCalls.MAX_PROJECTS_PER_SESSION) {
                        throw new LomiException(
                                ErrorCode.RESOURCE_EXHAUSTED,
                                "a connection may hold at most " + LayoutCalls.MAX_PROJECTS_PER_SESSION + " projects");
                    }
                },
                () -> "open " + folder.shown() + " as project '" + name + "' for " + session.clientLabel(),
                () -> {
                    // the admin approves the folder that will be granted, not the text the agent sent (F11)
                    plan.put("folder", folder.canonical().toString());
                    return plan;
                },
                operation -> {
                    Path canonical = Projects.canonicalDirectory(folder.canonical());
                    return layout.change(OptionalLong.empty(), edit -> {
                        Project project = edit.addProject(canonical, name);
                        session.extendGrant(project.id());
                        return Encoder.encode(new LayoutSpecs.ProjectOpened(
                                Decimal.of(edit.newRevision()),
                                project.id(),
                                project.workspaces().get(0).id(),
                                project.root().toString()));
                    });
                });
    }

    /** Closes a granted project and all its workspaces (never deletes the folder). */
    Object close(Session session, LayoutSpecs.ProjectClose in) {
        ProjectId projectId = in.projectId();
        WorkspaceAccess.Listed anchor = workspaces.resolve(session, in.workspaceId());
        if (!anchor.project().id().equals(projectId)) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "workspace " + anchor.workspace().id() + " is not in project " + projectId);
        }
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, LayoutSpecs.PROJECT_CLOSE, in, anchor, projectId.value(), OptionalLong.of(expected)),
                () -> {
                    checks.requireRevision(expected);
                    checks.requireClosable(checks.views(anchor.project()), anchor.project(), true);
                },
                operation -> {
                    List<Panel> closed = new ArrayList<>();
                    JsonNode result = layout.change(OptionalLong.of(expected), edit -> {
                        List<WorkspaceView> views = new ArrayList<>();
                        for (Workspace w : edit.project(projectId).workspaces()) {
                            views.add(edit.view(w.id()));
                        }
                        checks.requireClosable(views, edit.project(projectId), true);
                        views.forEach(v -> closed.addAll(v.panels()));
                        edit.removeProject(projectId);
                        return Encoder.encode(new LayoutSpecs.ProjectClosed(
                                Decimal.of(edit.newRevision()),
                                projectId,
                                views.stream().map(v -> v.workspace().id()).toList()));
                    });
                    closed.forEach(live::end);
                    return result;
                });
    }

    /**
     * The folder a project_open names, made canonical once — by the admission, before the summary,
     * the plan and the work read it — so the admin approves the folder that will be granted.
     */
    private static final class FolderToOpen {
        private final String requested;
        private @Nullable Path canonical;

        FolderToOpen(String requested) {
            this.requested = requested;
        }

        synchronized Path canonical() {
            Path known = canonical;
            if (known == null) {
                known = Projects.canonicalDirectory(Path.of(requested));
                canonical = known;
            }
            return known;
        }

        /** The canonical folder, and what was asked for when that differs ({@code /home/u/p/..}). */
        String shown() {
            String folder = canonical().toString();
            return folder.equals(requested) ? requested : folder + " (requested as " + requested + ")";
        }
    }
}
