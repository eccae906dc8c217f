package dev.lomicontrol.layout.tools;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;

/**
 * {@code lomi_workspace_create} and {@code lomi_workspace_update} (rename, select, close): a
 * workspace close ends the live panels it held, once the change is durable.
 */
final class WorkspaceChanges {

    private final Layout layout;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final LivePanels live;
    private final LayoutChecks checks;

    WorkspaceChanges(
            Layout layout, WorkspaceAccess workspaces, OperationRunner runner, LivePanels live, LayoutChecks checks) {
        this.layout = layout;
        this.workspaces = workspaces;
        this.runner = runner;
        this.live = live;
        this.checks = checks;
    }

    Object create(Session session, LayoutSpecs.WorkspaceCreate in) {
        WorkspaceAccess.Listed anchor = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, LayoutSpecs.WORKSPACE_CREATE, in, anchor, "", OptionalLong.of(expected)),
                checks.revision(expected),
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    WorkspaceView created = edit.createWorkspace(
                            anchor.project().id(), in.name().value());
                    return Encoder.encode(new LayoutSpecs.WorkspaceCreated(
                            Decimal.of(edit.newRevision()),
                            created.workspace().id(),
                            created.project().id(),
                            created.panels().get(0).id()));
                }));
    }

    /** rename {name} | select {action:"select"} | close {action:"close"} (close also needs workspace.close). */
    Object update(Session session, LayoutSpecs.WorkspaceUpdate in) {
        LayoutSpecs.Updated action = in instanceof LayoutSpecs.Rename
                ? LayoutSpecs.Updated.RENAME
                : ((LayoutSpecs.Act) in).action() == LayoutSpecs.Action.SELECT
                        ? LayoutSpecs.Updated.SELECT
                        : LayoutSpecs.Updated.CLOSE;
        WorkspaceAccess.Listed target = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        WorkspaceId id = target.workspace().id();
        String resource = action.name().toLowerCase(Locale.ROOT);
        return runner.immediate(
                OperationRunner.Request.of(
                        session, LayoutSpecs.WORKSPACE_UPDATE, in, target, resource, OptionalLong.of(expected)),
                () -> {
                    checks.requireRevision(expected);
                    if (action == LayoutSpecs.Updated.CLOSE) {
                        checks.requireClosable(
                                List.of(layout.view(id)),
                                checks.currentProject(target.project().id()),
                                false);
                    }
                },
                operation -> {
                    List<Panel> closed = new ArrayList<>();
                    JsonNode result = layout.change(OptionalLong.of(expected), edit -> {
                        switch (action) {
                            case RENAME:
                                edit.renameWorkspace(
                                        id, ((LayoutSpecs.Rename) in).name().value());
                                break;
                            case SELECT:
                                edit.select(id);
                                break;
                            default:
                                WorkspaceView view = edit.view(id);
                                checks.requireClosable(
                                        List.of(view),
                                        checks.currentProject(target.project().id()),
                                        false);
                                closed.addAll(view.panels());
                                edit.deleteWorkspace(id);
                                break;
                        }
                        return Encoder.encode(
                                new LayoutSpecs.WorkspaceUpdated(Decimal.of(edit.newRevision()), action, id));
                    });
                    closed.forEach(live::end);
                    return result;
                });
    }
}
