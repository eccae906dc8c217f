package dev.lomicontrol.broker;

import dev.lomicontrol.chat.Chat;
import dev.lomicontrol.chat.ToolGateway;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.pairing.Decision;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The built-in Chat AI's broker sessions (ADR 0010): each conversation that uses tools gets a
 * session of its own, obtained exactly as a client's — a pairing request in the same queue
 * ({@code pairing list} shows it, labelled {@code lomi Chat AI <conversation>}), approved by the
 * admin with the same projects and scopes choice (or at once by YOLO), then a {@link Session} with
 * that grant — minus every {@code chat.*} scope: the Chat AI gets no chat read/send rights
 * automatically. Its calls go through {@link BrokerCalls#call}, the same authority check, scope
 * check, binding and encoding as any client's. No socket and no stdio process: it runs inside the
 * broker. A session that is no longer alive (revoked, YOLO toggled, restart) is replaced by a new
 * pairing, never reused.
 */
@Component
public class ChatAiSessions implements ToolGateway {

    private final Pairings pairings;
    private final Sessions sessions;
    private final BrokerCalls calls;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Live> live = new ConcurrentHashMap<>();

    public ChatAiSessions(Pairings pairings, Sessions sessions, BrokerCalls calls, Chat chat) {
        this.pairings = pairings;
        this.sessions = sessions;
        this.calls = calls;
        chat.replies().useTools(this);
    }

    @Override
    public java.util.List<dev.lomicontrol.tools.ToolSpec<?>> tools() {
        return dev.lomicontrol.catalog.ToolCatalog.standard().all();
    }

    @Override
    public ToolSession session(String conversationId, ProjectId project, Consumer<String> waiting) {
        Live current = live.get(conversationId);
        if (current != null && current.alive()) {
            return current;
        }
        Pairings.Pending pending = pairings.submit(
                "lomi Chat AI " + conversationId,
                fingerprint(),
                ProcessHandle.current().pid());
        if (!pending.decision().isDone()) {
            waiting.accept(pending.request().id());
        }
        Decision decision;
        try {
            decision = pending.decision().get(Pairings.EXPIRY.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pairings.withdraw(pending.request().id());
            throw new LomiException(
                    ErrorCode.PAIRING_REQUIRED,
                    "the Chat AI's pairing request " + pending.request().id() + " expired");
        } catch (InterruptedException e) {
            pairings.withdraw(pending.request().id());
            Thread.currentThread().interrupt();
            throw new LomiException(ErrorCode.CONTROL_REVOKED, "stopped while the Chat AI waited for pairing");
        } catch (ExecutionException e) {
            throw new LomiException(ErrorCode.PAIRING_REQUIRED, "the Chat AI's pairing failed: " + e.getCause());
        }
        if (!(decision instanceof Decision.Approved approved)) {
            throw new LomiException(
                    ErrorCode.PAIRING_REQUIRED,
                    "the admin denied the Chat AI's pairing request "
                            + pending.request().id());
        }
        Grant granted = approved.grant();
        Set<String> scopes = granted.scopes().stream()
                .filter(scope -> !scope.startsWith("chat."))
                .collect(Collectors.toSet());
        AtomicReference<Session> opened = new AtomicReference<>();
        Session session = sessions.open(
                pending.request(),
                new Grant(granted.allProjects(), granted.projects(), scopes, granted.android()),
                () -> {
                    Session ended = opened.get();
                    if (ended != null) {
                        calls.sessionEnded(ended);
                    }
                });
        opened.set(session);
        Live fresh = new Live(session);
        live.put(conversationId, fresh);
        return fresh;
    }

    /** The session of a conversation's Chat AI, if it has one. */
    public java.util.Optional<Session> sessionOf(String conversationId) {
        return java.util.Optional.ofNullable(live.get(conversationId)).map(l -> l.session);
    }

    /** A stand-in for a client certificate's SHA-256 (the session is in-process; nothing to pin). */
    private String fingerprint() {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Ids.randomHex(random, 32).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private final class Live implements ToolSession {
        private final Session session;

        Live(Session session) {
            this.session = session;
        }

        @Override
        public boolean alive() {
            return session.isAlive();
        }

        @Override
        public JsonNode call(String tool, JsonNode arguments) {
            return calls.call(session, tool, arguments);
        }

        @Override
        public void end() {
            sessions.revoke(session.id(), "the Chat AI's conversation ended");
        }
    }
}
