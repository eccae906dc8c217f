package dev.lomicontrol.layout.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.layout.api.LayoutSpecs;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets.PanelTarget;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Movement;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Token;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_panel_focus}, {@code lomi_panel_close} and {@code lomi_panel_move}: the panel a focus
 * or close names is checked against the live generation the call names; closing an editor with
 * unsaved changes parks for the admin.
 */
final class PanelChanges {

    private final Layout layout;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final LivePanels live;
    private final LayoutChecks checks;

    PanelChanges(
            Layout layout, WorkspaceAccess workspaces, OperationRunner runner, LivePanels live, LayoutChecks checks) {
        this.layout = layout;
        this.workspaces = workspaces;
        this.runner = runner;
        this.live = live;
        this.checks = checks;
    }

    Object focus(Session session, LayoutSpecs.PanelMutation in) {
        PanelTarget target = target(session, in);
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(
                        session,
                        LayoutSpecs.PANEL_FOCUS,
                        in,
                        target.listed(),
                        target.panel().id(),
                        OptionalLong.of(expected)),
                checks.revision(expected),
                operation -> {
                    JsonNode focused = layout.change(OptionalLong.of(expected), edit -> {
                        edit.view(target.workspace())
                                .panel(target.panel().id())
                                .orElseThrow(() -> new LomiException(
                                        ErrorCode.TARGET_NOT_FOUND,
                                        "no panel " + target.panel().id()));
                        edit.focus(target.workspace(), target.panel().id());
                        return Encoder.encode(new LayoutSpecs.PanelFocused(
                                Decimal.of(edit.newRevision()),
                                target.workspace(),
                                target.panel().id()));
                    });
                    live.focused(target.panel());
                    return focused;
                });
    }

    /**
     * Closes a scratch panel, an editor panel or an idle terminal this session owns; running commands
     * and other sessions' live are kept. An editor with unsaved changes waits for the admin:
     * approve = discard the changes and close, reject = keep the panel.
     */
    Object close(Session session, LayoutSpecs.PanelMutation in) {
        PanelTarget target = target(session, in);
        Panel panel = target.panel();
        long expected = in.expectedRevision().asLong();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, LayoutSpecs.PANEL_CLOSE, in, target.listed(), panel.id(), OptionalLong.of(expected));
        OperationRunner.Admission admission = () -> {
            checks.requireRevision(expected);
            checks.requirePanelClosable(session, panel);
        };
        if (live.dirty(panel)) {
            ObjectNode plan = JsonNodeFactory.instance.objectNode();
            plan.put("action", "close an editor with unsaved changes");
            plan.put("panelId", panel.id());
            plan.put("file", panel.cwd());
            plan.put("approve", "discard the unsaved changes and close");
            plan.put("reject", "keep the panel and its changes");
            plan.put("client", session.clientLabel());
            // decided later: the layout may have moved meanwhile, the admin approved this exact panel
            return runner.afterApproval(
                    request,
                    admission,
                    "close " + panel.cwd() + " and DISCARD its unsaved changes (" + session.clientLabel() + ")",
                    plan,
                    closing(session, target, OptionalLong.empty()));
        }
        return runner.immediate(request, admission, operation -> {
            if (live.dirty(panel)) {
                throw new LomiException(
                        ErrorCode.TARGET_BUSY, "the editor got unsaved changes meanwhile; close it again");
            }
            return closing(session, target, OptionalLong.of(expected)).perform(operation);
        });
    }

    /** Removes the panel (checked again inside the change) based on {@code revision}, then ends what it showed. */
    private OperationRunner.Work closing(Session session, PanelTarget target, OptionalLong revision) {
        Panel panel = target.panel();
        return operation -> {
            JsonNode result = layout.change(revision, edit -> {
                edit.view(target.workspace())
                        .panel(panel.id())
                        .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panel.id()));
                checks.requirePanelClosable(session, panel);
                edit.removePanel(target.workspace(), panel.id());
                return Encoder.encode(
                        new LayoutSpecs.PanelClosed(Decimal.of(edit.newRevision()), target.workspace(), panel.id()));
            });
            live.end(panel);
            return result;
        };
    }

    /**
     * The panel a focus or close names, checked against the generations the call names: a
     * {@code terminalSessionId} or {@code browserGeneration} other than the live one the panel shows
     * is STALE_GENERATION.
     */
    private PanelTarget target(Session session, LayoutSpecs.PanelMutation in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        String panelId = in.panelId().value();
        Panel panel = layout.view(listed.workspace().id())
                .panel(panelId)
                .orElseThrow(() ->
                        new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panelId + " in this workspace"));
        Optional<String> terminal = in.terminalSessionId().map(Hex32::value);
        if (terminal.isPresent() && !terminal.equals(panel.terminalSessionId())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " no longer shows terminal " + terminal.get() + "; list the panels again");
        }
        if (in.browserGeneration().isPresent()
                && !in.browserGeneration().map(Token::value).equals(live.browserGeneration(panel))) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " (" + panel.kind().wire() + ") does not show browser "
                            + "generation " + in.browserGeneration().get().value() + " (now: "
                            + live.browserGeneration(panel).orElse("none")
                            + "); list the panels again");
        }
        return new PanelTarget(listed, panel);
    }

    Object move(Session session, LayoutSpecs.PanelMove in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Movement movement = movement(session, in.movement());
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, LayoutSpecs.PANEL_MOVE, in, listed, movement.type(), OptionalLong.of(expected)),
                () -> {
                    checks.requireRevision(expected);
                    layout.checkMovement(listed.workspace().id(), movement);
                },
                operation -> layout.change(OptionalLong.of(expected), edit -> {
                    edit.move(listed.workspace().id(), movement);
                    return Encoder.encode(new LayoutSpecs.PanelMoved(
                            Decimal.of(edit.newRevision()),
                            listed.workspace().id(),
                            LayoutChecks.wire(LayoutSpecs.MovementType.class, movement.type())));
                }));
    }

    private Movement movement(Session session, LayoutSpecs.Movement m) {
        if (m instanceof LayoutSpecs.ReorderTab reorder) {
            return new Movement.ReorderTab(
                    reorder.tabId().value(), reorder.beforeTabId().map(Token::value));
        }
        if (m instanceof LayoutSpecs.DockTab dock) {
            return new Movement.DockTab(dock.tabId().value(), dock.targetTabId().value(), side(dock.side()));
        }
        if (m instanceof LayoutSpecs.MovePane pane) {
            return new Movement.MovePane(
                    pane.panelId().value(), pane.targetPanelId().value(), side(pane.side()));
        }
        LayoutSpecs.TransferTab transfer = (LayoutSpecs.TransferTab) m;
        WorkspaceId target = workspaces
                .resolve(session, transfer.targetWorkspaceId())
                .workspace()
                .id();
        return new Movement.TransferTab(
                transfer.tabId().value(), target, transfer.beforeTabId().map(Token::value));
    }

    private static Movement.Side side(LayoutSpecs.Side side) {
        return Movement.Side.valueOf(side.name());
    }
}
