package dev.lomicontrol.broker;

import dev.lomicontrol.core.Visible;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tells the admin when something waits for them: every new pairing request and every operation
 * posted for a decision is logged (stderr and the log file) with the console command that answers
 * it, and — where a desktop session is present ({@code DBUS_SESSION_BUS_ADDRESS}, {@code DISPLAY} or
 * {@code WAYLAND_DISPLAY} set, and {@code notify-send} on the PATH) — shown as a freedesktop
 * notification. Without a desktop nothing else happens; a failing notification is ignored.
 */
@Component
public final class AdminAttention {

    private static final Logger log = LoggerFactory.getLogger(AdminAttention.class);

    private final Optional<Path> notifySend;

    @org.springframework.beans.factory.annotation.Autowired
    public AdminAttention(Pairings pairings, DecisionBoard decisions) {
        this(pairings, decisions, System.getenv());
    }

    AdminAttention(Pairings pairings, DecisionBoard decisions, Map<String, String> environment) {
        this.notifySend = desktop(environment) ? onPath("notify-send", environment) : Optional.empty();
        pairings.watch(this::pairingRequested);
        decisions.watch(this::decisionPosted);
    }

    void pairingRequested(PairingRequest request) {
        log.warn(
                "pairing request {} from client '{}' (pid {}, certificate SHA-256 {}) waits for the admin until {}; answer with: "
                        + "lomi-control console pairing approve {}   (or: pairing deny {})",
                request.id(),
                request.clientLabel(),
                request.peerPid(),
                request.certificateSha256(),
                request.expiresAt(),
                request.id(),
                request.id());
        notifyDesktop(
                "lomi-control: pairing request",
                "'" + request.clientLabel() + "' (pid " + request.peerPid() + ") asks to connect. Approve: "
                        + "lomi-control console pairing approve " + request.id());
    }

    void decisionPosted(PendingDecision decision) {
        log.warn(
                "operation {} ({}) waits for the admin's decision: {}; answer with: lomi-control console decision approve {}   (or: decision reject {};"
                        + " the plan: decision list)",
                decision.operationId(),
                decision.tool(),
                decision.summary(),
                decision.operationId(),
                decision.operationId());
        notifyDesktop(
                "lomi-control: decision needed",
                decision.tool() + ": " + decision.summary() + ". Approve: lomi-control console decision approve "
                        + decision.operationId());
    }

    private void notifyDesktop(String title, String body) {
        if (notifySend.isEmpty()) {
            return;
        }
        try {
            Process process = new ProcessBuilder(
                            notifySend.get().toString(), "--app-name=lomi-control", title, notificationBody(body))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            process.getOutputStream().close();
            process.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(timeout -> {
                process.destroyForcibly();
                return process;
            });
        } catch (IOException e) {
            log.debug("notify-send failed: {}", e.getMessage());
        }
    }

    /**
     * {@code text} as a notification body: notification daemons render a subset of HTML in it
     * ({@code <b>}, {@code <a href>}), so {@code &}, {@code <} and {@code >} become entities, and
     * control characters are shown escaped as in the log ({@link Visible#line}).
     */
    static String notificationBody(String text) {
        return Visible.line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static boolean desktop(Map<String, String> environment) {
        return List.of("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY").stream()
                .anyMatch(name -> environment.getOrDefault(name, "").length() > 0);
    }

    static Optional<Path> onPath(String program, Map<String, String> environment) {
        for (String directory : environment.getOrDefault("PATH", "").split(":")) {
            if (!directory.isEmpty()) {
                Path candidate = Path.of(directory, program);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
