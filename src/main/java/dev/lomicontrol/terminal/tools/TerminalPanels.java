package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelControl;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.terminal.Lease;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex32;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Terminal panels: what the layout asks about them (runtime state, busy, who controls the input,
 * closing one ends its shell) and lomi_panel_control, which claims (with the admin's approval) or
 * releases a terminal's input lease.
 */
final class TerminalPanels implements LivePanels {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** A claim plan's {@code owner} for a terminal no agent created: the admin's own ({@code terminal new} in the console). */
    static final String ADMINS_OWN = "the admin's own terminal (console terminal new)";

    private final TerminalChecks checks;
    private final OperationRunner runner;

    TerminalPanels(TerminalChecks checks, OperationRunner runner) {
        this.checks = checks;
        this.runner = runner;
    }

    @Override
    public String runtimeState(Panel panel) {
        Optional<Terminal> terminal = checks.live(panel);
        if (terminal.isEmpty() || !terminal.get().isAlive()) {
            return "exited";
        }
        if (TerminalChecks.busy(terminal.get())) {
            return "running";
        }
        return terminal.get().prompt() == PromptState.READY ? "ready" : "unobserved";
    }

    @Override
    public boolean busy(Panel panel) {
        return checks.live(panel)
                .filter(Terminal::isAlive)
                .map(TerminalChecks::busy)
                .orElse(false);
    }

    @Override
    public boolean controlledBy(Session session, Panel panel) {
        return checks.live(panel)
                .filter(terminal -> TerminalChecks.leaseHeldBy(session, terminal))
                .isPresent();
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        return checks.live(panel).filter(Terminal::isAlive).isPresent()
                && !panel.ownerSession().filter(session.id().value()::equals).isPresent();
    }

    @Override
    public void end(Panel panel) {
        checks.live(panel).ifPresent(Terminal::kill);
    }

    /**
     * claim (the admin approves; the previous holder's lease dies) or release (this session's lease
     * dies; the shell keeps running). The Android form goes to the feature that owns Android panels
     * ({@code live}, by kind): its leases live there.
     */
    Object control(Session session, TerminalSpecs.Control request, LivePanels live) {
        if (request instanceof TerminalSpecs.AndroidControl android) {
            return live.control(
                    session,
                    new PanelControl(
                            PanelKind.ANDROID,
                            TerminalSpecs.PANEL_CONTROL,
                            android,
                            android.workspaceId(),
                            android.panelId(),
                            android.deviceId(),
                            android.generation(),
                            android.action() == TerminalSpecs.ControlAction.CLAIM,
                            Encoder.encode(android.action()).asString(),
                            android.expectedRevision().asLong()));
        }
        TerminalSpecs.TerminalControl in = (TerminalSpecs.TerminalControl) request;
        TerminalChecks.Bound bound = checks.bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        Terminal terminal = bound.terminal();
        OperationRunner.Request operation = OperationRunner.Request.of(
                session, TerminalSpecs.PANEL_CONTROL, in, bound.target().listed(), terminal.id(), OptionalLong.empty());
        if (in.action() == TerminalSpecs.ControlAction.RELEASE) {
            return runner.immediate(
                    operation,
                    () -> {
                        if (!TerminalChecks.leaseHeldBy(session, terminal)) {
                            throw new LomiException(
                                    ErrorCode.INVALID_ARGUMENT,
                                    "this session holds no input lease on terminal " + terminal.id());
                        }
                    },
                    done -> {
                        terminal.revokeLeasesOf(session.id().value(), "released by its holder");
                        return controlled(in, Optional.empty());
                    });
        }
        Panel panel = bound.target().panel();
        ObjectNode plan = JSON.objectNode();
        plan.put("action", "claim terminal input");
        plan.put("terminalSessionId", terminal.id());
        plan.put("panelId", panel.id());
        plan.put("title", panel.title());
        plan.put("owner", panel.ownerSession().orElse(ADMINS_OWN));
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        plan.put("currentHolder", terminal.lease().map(Lease::holder).orElse("nobody"));
        plan.put("sandboxed", checks.sandboxed());
        return runner.afterApproval(
                operation,
                () -> {
                    TerminalChecks.requireAlive(terminal);
                    TerminalChecks.requireNotHosting(session, terminal);
                    TerminalChecks.requireSandboxedOrScope(checks.sandboxed(), session, "claiming a terminal's input");
                },
                "give " + session.clientLabel() + " the input of "
                        + (panel.ownerSession().isEmpty() ? "your own terminal '" : "terminal '") + panel.title()
                        + "' (" + terminal.id() + ")",
                plan,
                done -> {
                    TerminalChecks.requireAlive(terminal);
                    session.requireAlive();
                    Lease lease = terminal.grantLease(session.id().value());
                    return controlled(in, Optional.of(lease.id()));
                });
    }

    private static JsonNode controlled(TerminalSpecs.TerminalControl in, Optional<String> leaseId) {
        return Encoder.encode(new TerminalResults.Controlled(
                in.workspaceId(),
                in.panelId(),
                in.action(),
                in.terminalSessionId(),
                leaseId.map(Hex32::new),
                leaseId.isPresent()));
    }
}
