package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.operations.OperationJson;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.Lease;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.DisplayName;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Token;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * lomi_terminal_create: a new shell in a new panel, with the creator's input lease; with a
 * {@code command}, the same operation runs it at the shell's first ready prompt ({@link FirstCommand})
 * through {@link RunCalls}. Keeps what each create made, by operation, while its terminal lives.
 */
final class CreateCalls {

    private static final Logger log = LoggerFactory.getLogger(CreateCalls.class);

    private final Terminals terminals;
    private final Layout layout;
    private final Ledger ledger;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final Settings settings;
    private final RunCalls runs;
    private final FirstCommand firstCommand;
    private final Map<OperationId, TerminalResults.Created> made = new ConcurrentHashMap<>();

    CreateCalls(
            Terminals terminals,
            Layout layout,
            Ledger ledger,
            PanelTargets panels,
            OperationRunner runner,
            Settings settings,
            RunCalls runs,
            FirstCommand firstCommand) {
        this.terminals = terminals;
        this.layout = layout;
        this.ledger = ledger;
        this.panels = panels;
        this.runner = runner;
        this.settings = settings;
        this.runs = runs;
        this.firstCommand = firstCommand;
    }

    /** What the create {@code id} made, while its terminal lives (never after a broker restart). */
    Optional<TerminalResults.Created> made(OperationId id) {
        return Optional.ofNullable(made.get(id));
    }

    /**
     * A new shell in a new panel; {@code cwdRelative} "" (or ".") is the project root, no profile is the
     * default one. With a {@code command} (checked before anything is reserved or started) the same
     * operation then runs it at the shell's first ready prompt, as lomi_terminal_run would, and
     * settles with the run in its result ({@link FirstCommand}).
     */
    Object create(Session session, TerminalSpecs.Create in) {
        in.command().ifPresent(Terminal::validateCommand);
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        String profile = in.profileId()
                .map(p -> p.name().toLowerCase(Locale.ROOT))
                .orElse(settings.terminal().defaultProfile());
        long expected = in.expectedRevision().asLong();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, TerminalSpecs.CREATE, in, listed, in.directory(), OptionalLong.of(expected));
        // admitted: the canonical start directory inside the project, which the work then uses
        OperationRunner.Admitting<Path> admission = () -> {
            Revisions.require(expected, layout.revision());
            Path cwd = TerminalChecks.insideProject(listed.project().root(), in.directory());
            requireStartable(session, profile);
            return cwd;
        };
        if (in.command().isEmpty()) {
            return runner.immediate(
                    request,
                    admission,
                    (operation, cwd) -> Encoder.encode(open(operation.id(), session, listed, profile, cwd, in)
                            .created()));
        }
        OperationRunner.Start<Path> reservation = runner.reserveForDispatch(request, admission);
        if (reservation instanceof OperationRunner.Start.Answered<Path> duplicate) {
            return OperationJson.of(duplicate.operation());
        }
        OperationRunner.Start.Begun<Path> begun = (OperationRunner.Start.Begun<Path>) reservation;
        Operation running = begun.running();
        Opened opened;
        try {
            opened = open(running.id(), session, listed, profile, begun.plan(), in);
        } catch (LomiException refusal) {
            return OperationJson.of(runner.settleRefused(running.id(), refusal));
        } catch (RuntimeException e) {
            log.warn("operation {}: starting the terminal failed: {}", running.id(), e.toString());
            return OperationJson.of(runner.settleUnknown(
                    running.id(),
                    "starting the terminal failed unexpectedly (" + e.getClass().getSimpleName()
                            + "); list the layout (lomi_layout_get) to see whether it exists"));
        }
        String command = in.command().get();
        TerminalResults.Created created = opened.created();
        firstCommand.start(
                running,
                session.id(),
                opened.terminal(),
                created,
                () -> runs.dispatch(
                        running,
                        opened.terminal(),
                        created.leaseId().value(),
                        command,
                        session.id(),
                        created.workspaceId(),
                        created.panelId(),
                        Optional.of(created)));
        return OperationJson.of(ledger.get(session.id(), running.id()).orElse(running));
    }

    /** The profile is installed and the sandbox usable, and a shell without the sandbox needs its own scope. */
    private void requireStartable(Session session, String profile) {
        TerminalChecks.requireSandboxedOrScope(terminals.sandbox().enabled(), session, "an unsandboxed terminal");
        terminals.requireStartable(profile);
    }

    /** A started terminal, its panel and the create's result. */
    private record Opened(Terminal terminal, TerminalResults.Created created) {}

    /**
     * Starts the shell, gives the session its lease and adds its panel ({@link Terminals#startPlaced}:
     * the terminal is killed if the panel fails); what it made is kept under the create's operation
     * while the terminal lives.
     */
    private Opened open(
            OperationId operation,
            Session session,
            WorkspaceAccess.Listed listed,
            String profile,
            Path cwd,
            TerminalSpecs.Create in) {
        String title = in.title().map(DisplayName::value).orElse(profile);
        return terminals.startPlaced(
                profile,
                listed.project().root(),
                cwd,
                in.columns(),
                in.rows(),
                settings.terminal().scrollbackBytes(),
                terminal -> {
                    Lease lease = terminal.grantLease(session.id().value());
                    Layout.PlacedPanel placed = layout.addTerminalPanel(
                            OptionalLong.of(in.expectedRevision().asLong()),
                            listed.workspace().id(),
                            title,
                            terminal.id(),
                            Optional.of(session.id().value()),
                            profile,
                            in.directory());
                    TerminalResults.Created created = new TerminalResults.Created(
                            listed.workspace().id(),
                            new Token(placed.panel().id()),
                            new Token(placed.tabId()),
                            new Hex32(terminal.id()),
                            new Hex32(lease.id()),
                            TerminalSpecs.Profile.valueOf(profile.toUpperCase(Locale.ROOT)),
                            Decimal.of(placed.revision()),
                            Optional.empty(),
                            Optional.empty());
                    made.values()
                            .removeIf(earlier -> terminals
                                    .find(earlier.terminalSessionId().value())
                                    .filter(Terminal::isAlive)
                                    .isEmpty());
                    made.put(operation, created);
                    return new Opened(terminal, created);
                });
    }
}
