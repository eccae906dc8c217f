package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.terminal.HumanHold;
import dev.lomicontrol.terminal.Lease;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Token;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The checks every terminal tool shares, written once: which live terminal a call names (a terminal
 * panel of a granted workspace), whether the caller may type into it (its own lease, not the terminal
 * hosting the caller), whether it is busy, and where a new shell may start.
 */
final class TerminalChecks {

    private final Terminals terminals;
    private final PanelTargets panels;

    TerminalChecks(Terminals terminals, PanelTargets panels) {
        this.terminals = terminals;
        this.panels = panels;
    }

    /** A terminal panel of a granted workspace and its live terminal. */
    record Bound(PanelTargets.PanelTarget target, Terminal terminal) {

        /**
         * The caller may type here: it is not the terminal hosting the caller, {@code leaseId} is the
         * caller's lease, and the admin does not hold the input (TARGET_BUSY: {@link HumanHold#REFUSAL}).
         */
        void requireInput(Session session, String leaseId) {
            requireNotHosting(session, terminal);
            requireLease(session, terminal, leaseId);
            if (terminal.humanHold().isPresent()) {
                throw new LomiException(ErrorCode.TARGET_BUSY, HumanHold.REFUSAL);
            }
        }
    }

    /** The terminal a call names; a panel of another kind, or a terminal that is gone, is TARGET_NOT_FOUND. */
    Bound bind(Session session, WorkspaceId workspace, Token panelId, Hex32 terminalSessionId) {
        String terminalId = terminalSessionId.value();
        PanelTargets.PanelTarget target = panels.panel(session, workspace, panelId.value(), Optional.of(terminalId));
        if (target.panel().kind() != PanelKind.TERMINAL) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "panel " + target.panel().id() + " is not a terminal");
        }
        Terminal terminal = terminals
                .find(terminalId)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "terminal " + terminalId
                                + " is not running (terminals do not survive a broker restart); create a new one"));
        return new Bound(target, terminal);
    }

    /** The live terminal behind a terminal panel, if this broker runs it. */
    Optional<Terminal> live(Panel panel) {
        return panel.terminalSessionId().flatMap(terminals::find);
    }

    /** Whether a command runs: a run not yet ended, or the shell says a command runs. */
    static boolean busy(Terminal terminal) {
        return running(terminal) || terminal.prompt() == PromptState.RUNNING;
    }

    /** Whether the terminal's latest run has neither completed nor ended otherwise. */
    static boolean running(Terminal terminal) {
        return terminal.latest()
                .filter(r -> !r.completed() && !r.outcome().isDone())
                .isPresent();
    }

    /** Whether {@code session} holds the terminal's input lease. */
    static boolean leaseHeldBy(Session session, Terminal terminal) {
        return terminal.lease()
                .filter(l -> l.holder().equals(session.id().value()))
                .isPresent();
    }

    /** The lease is the terminal's current one and belongs to this session: a lease id is not a bearer token. */
    static void requireLease(Session session, Terminal terminal, String leaseId) {
        Optional<Lease> lease = terminal.lease();
        if (lease.isEmpty()
                || !lease.get().id().equals(leaseId)
                || !lease.get().holder().equals(session.id().value())) {
            throw new LomiException(
                    ErrorCode.CONTROL_REVOKED,
                    "lease " + leaseId + " is not valid for terminal " + terminal.id()
                            + (terminal.isAlive() ? "" : " (the shell exited)")
                            + "; this session holds no input lease on it: claim its input with lomi_panel_control"
                            + " {action: claim} (the admin approves) and use the leaseId it answers");
        }
    }

    /** Whether this broker's shells run in the sandbox (the admin's setting, fixed for the broker's run). */
    boolean sandboxed() {
        return terminals.sandbox().enabled();
    }

    /**
     * With the sandbox off ({@code sandboxed} false), a shell of one's own ({@code what}: creating one, or claiming another's)
     * needs the {@code terminal.unsandboxed} scope, which no default grant contains.
     */
    static void requireSandboxedOrScope(boolean sandboxed, Session session, String what) {
        if (!sandboxed && !session.grant().allows(Scopes.TERMINAL_UNSANDBOXED)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "the admin turned the terminal sandbox off; " + what + " needs the "
                            + Scopes.TERMINAL_UNSANDBOXED + " scope, which no default grant contains; ask"
                            + " the user to turn the sandbox on or to pair again granting "
                            + Scopes.TERMINAL_UNSANDBOXED);
        }
    }

    /** The calling agent's own terminal is protected: its helper process descends from that shell. */
    static void requireNotHosting(Session session, Terminal terminal) {
        if (session.peerPid() > 1 && ProcessAncestry.of(session.peerPid()).contains(terminal.shellPid())) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "terminal " + terminal.id() + " hosts the calling agent itself; it is protected from its input");
        }
    }

    /** The terminal's shell still runs; else TARGET_NOT_FOUND. */
    static void requireAlive(Terminal terminal) {
        if (!terminal.isAlive()) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "terminal " + terminal.id() + " has exited");
        }
    }

    /** {@code cwdRelative} resolved inside the project root without escaping it (no absolute path, no {@code ..}, no link out). */
    static Path insideProject(Path root, String cwdRelative) {
        if (cwdRelative.isEmpty()
                || cwdRelative.length() > 4096
                || cwdRelative.indexOf('\0') >= 0
                || cwdRelative.indexOf('\\') >= 0
                || cwdRelative.startsWith("/")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cwdRelative is a relative path inside the project");
        }
        for (String part : cwdRelative.split("/", -1)) {
            if (part.equals("..") || (part.isEmpty() && !cwdRelative.equals("."))) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "cwdRelative may not contain '..' or empty components");
            }
        }
        try {
            Path real = root.resolve(cwdRelative).toRealPath();
            if (!real.startsWith(root.toRealPath()) || !Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED,
                        "cwdRelative " + cwdRelative + " leaves the project or is not a directory");
            }
            return real;
        } catch (IOException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no directory " + cwdRelative + " in the project");
        }
    }
}
