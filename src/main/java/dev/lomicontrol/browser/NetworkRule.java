package dev.lomicontrol.browser;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The network rule every request of a page and of every target it starts (frames in their
 * own process, workers; see {@link PageTargets}) passes before it is sent, on {@code Fetch.requestPaused}:
 * a document (any frame) or a redirect hop goes only to an approved http(s) origin; any other request
 * (scripts, images, fetches, a worker's fetches) to a loopback, private or link-local address, or to
 * {@code localhost}, goes only to an approved origin too (security review 2026-12-06, N12: no pivot to
 * the host's other local services); everything else continues (networkIsolation "none").
 */
final class NetworkRule {

    private static final Logger log = LoggerFactory.getLogger(NetworkRule.class);
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private final PageChannel channel;
    private final String generation;
    private final Predicate<String> originAllowed;
    private final Deque<String> blocked = new ArrayDeque<>();
    private final AtomicLong blockedTotal = new AtomicLong();

    NetworkRule(PageChannel channel, String generation, Predicate<String> originAllowed) {
        this.channel = channel;
        this.generation = generation;
        this.originAllowed = originAllowed;
    }

    Predicate<String> originAllowed() {
        return originAllowed;
    }

    long blockedCount() {
        return blockedTotal.get();
    }

    Optional<String> lastBlocked() {
        synchronized (blocked) {
            return Optional.ofNullable(blocked.peekLast());
        }
    }

    /** Continues or fails one paused request of the target whose session is {@code session}. */
    void paused(JsonNode params, String session) {
        String requestId = params.path("requestId").asString();
        String target = params.path("request").path("url").asString("");
        String type = params.path("resourceType").asString("");
        boolean document = type.equals("Document");
        boolean redirect = params.has("redirectedRequestId");
        Optional<String> origin = Origins.of(target);
        boolean approved = origin.isPresent() && originAllowed.test(origin.get());
        boolean allowed = approved || !(document || redirect || isLocal(target));
        if (allowed) {
            channel.sendAndForgetOn(
                    session, "Fetch.continueRequest", PageChannel.obj().put("requestId", requestId));
            return;
        }
        refused(target, document ? "document" : redirect ? "redirect" : type + " to a local address");
        channel.sendAndForgetOn(
                session,
                "Fetch.failRequest",
                PageChannel.obj().put("requestId", requestId).put("errorReason", "BlockedByClient"));
    }

    /** Fails a paused request nobody could check (its description was over the connection's cap). */
    void refuseUnread(String requestId, String session, long bytes) {
        refused("(a request described in " + bytes + " bytes)", "unread");
        channel.sendAndForgetOn(
                session,
                "Fetch.failRequest",
                PageChannel.obj().put("requestId", requestId).put("errorReason", "BlockedByClient"));
    }

    private void refused(String target, String what) {
        blockedTotal.incrementAndGet();
        synchronized (blocked) {
            blocked.addLast(target);
            if (blocked.size() > 16) {
                blocked.removeFirst();
            }
        }
        log.info("browser {}: refused {} ({}): origin not approved", generation, Origins.forLog(target), what);
    }

    /**
     * Whether {@code url}'s host is this machine or its private networks as the address names it:
     * {@code localhost} and {@code *.localhost}, a loopback, private (10/8, 172.16/12, 192.168/16,
     * fc00::/7), link-local or unspecified IP literal. A name that resolves there is not seen (no DNS
     * lookup here).
     */
    static boolean isLocal(String url) {
        String host;
        try {
            host = new URI(url).getHost();
        } catch (URISyntaxException e) {
            return false;
        }
        if (host == null || host.isEmpty()) {
            return false;
        }
        host = host.toLowerCase(Locale.ROOT);
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            return true;
        }
        boolean v6 = host.startsWith("[") && host.endsWith("]");
        if (!v6 && !IPV4.matcher(host).matches()) {
            return false;
        }
        try {
            InetAddress address = InetAddress.getByName(v6 ? host.substring(1, host.length() - 1) : host);
            byte[] raw = address.getAddress();
            return address.isLoopbackAddress()
                    || address.isSiteLocalAddress()
                    || address.isLinkLocalAddress()
                    || address.isAnyLocalAddress()
                    || (raw.length == 16 && (raw[0] & 0xfe) == 0xfc);
        } catch (UnknownHostException e) {
            return true; // a literal Java cannot read is refused rather than guessed
        }
    }
}
