package dev.lomicontrol.git;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Config;
import org.jspecify.annotations.Nullable;

/** Reads remotes from the repository config and redacts credentials from every URL. */
final class Remotes {

    /** scheme://userinfo@ — the userinfo is everything up to the last '@' before the path. */
    private static final Pattern USERINFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@");

    /** At most this many remotes are reported, in name order. */
    static final int MAX_REMOTES = 64;

    private static final Pattern ANYWHERE = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\s@]*@");

    private Remotes() {}

    static List<GitRemote> read(Config config) {
        List<GitRemote> remotes = new ArrayList<>();
        for (String name : config.getSubsections("remote").stream()
                .sorted()
                .limit(MAX_REMOTES)
                .toList()) {
            List<String> fetch = redactAll(config.getStringList("remote", name, "url"));
            List<String> push = redactAll(config.getStringList("remote", name, "pushurl"));
            remotes.add(new GitRemote(name, fetch, push.isEmpty() ? fetch : push));
        }
        return remotes;
    }

    /** The transports named as they are; anything else is reported as {@code unknown}. */
    private static final java.util.Set<String> KNOWN = java.util.Set.of("https", "http", "ssh", "git", "file");
    /** scp-like {@code [user@]host:path} (no scheme, no slash before the colon). */
    private static final Pattern SCP = Pattern.compile("^(?:[^@/]+@)?([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]):(?!//).*");

    /** Every URL of every remote (fetch, then push; pushurl defaults to url), name order, at most {@code MAX_REMOTES} + 1 entries. */
    static List<GitRemoteEndpoint> endpoints(Config config) {
        List<GitRemoteEndpoint> endpoints = new ArrayList<>();
        for (String name : config.getSubsections("remote").stream().sorted().toList()) {
            String[] fetch = config.getStringList("remote", name, "url");
            String[] push = config.getStringList("remote", name, "pushurl");
            for (String url : fetch) {
                endpoints.add(endpoint(name, false, url));
            }
            for (String url : push.length == 0 ? fetch : push) {
                endpoints.add(endpoint(name, true, url));
            }
            if (endpoints.size() > MAX_REMOTES) {
                return List.copyOf(endpoints.subList(0, MAX_REMOTES + 1));
            }
        }
        return List.copyOf(endpoints);
    }

    /** Transport, host and port of one URL; nothing else of it leaves this method. */
    static GitRemoteEndpoint endpoint(String name, boolean push, String url) {
        java.util.regex.Matcher scheme = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://(.*)$", Pattern.DOTALL)
                .matcher(url);
        if (scheme.matches()) {
            String transport = scheme.group(1).toLowerCase(java.util.Locale.ROOT);
            if (transport.equals("git+ssh") || transport.equals("ssh+git")) {
                transport = "ssh";
            }
            if (!KNOWN.contains(transport)) {
                return new GitRemoteEndpoint(
                        name, push, "unknown", java.util.Optional.empty(), java.util.OptionalInt.empty(), true);
            }
            String rest = scheme.group(2);
            int end = rest.length();
            for (char c : new char[] {'/', '?', '#'}) {
                int at = rest.indexOf(c);
                if (at >= 0 && at < end) {
                    end = at;
                }
            }
            String authority = rest.substring(0, end);
            int user = authority.lastIndexOf('@');
            String hostPort = user >= 0 ? authority.substring(user + 1) : authority;
            java.util.Optional<String> host = java.util.Optional.empty();
            java.util.OptionalInt port = java.util.OptionalInt.empty();
            java.util.regex.Matcher hp = Pattern.compile("^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?$")
                    .matcher(hostPort);
            if (hp.matches()) {
                host = java.util.Optional.of(hp.group(1).toLowerCase(java.util.Locale.ROOT));
                if (hp.group(2) != null && Integer.parseInt(hp.group(2)) <= 65_535) {
                    port = java.util.OptionalInt.of(Integer.parseInt(hp.group(2)));
                }
            }
            boolean withheld = user >= 0 || end < rest.length() || (hp.matches() ? false : !hostPort.isEmpty());
            return new GitRemoteEndpoint(
                    name,
                    push,
                    transport,
                    transport.equals("file") ? java.util.Optional.empty() : host,
                    transport.equals("file") ? java.util.OptionalInt.empty() : port,
                    withheld || transport.equals("file"));
        }
        if (url.matches("^[A-Za-z][A-Za-z0-9+.-]*::.*")) {
            // a remote helper (transport::address): unknown, nothing of it shown
            return new GitRemoteEndpoint(
                    name, push, "unknown", java.util.Optional.empty(), java.util.OptionalInt.empty(), true);
        }
        java.util.regex.Matcher scp = SCP.matcher(url);
        if (scp.matches() && !url.startsWith("/") && !url.startsWith(".")) {
            return new GitRemoteEndpoint(
                    name,
                    push,
                    "ssh",
                    java.util.Optional.of(scp.group(1).toLowerCase(java.util.Locale.ROOT)),
                    java.util.OptionalInt.empty(),
                    true);
        }
        // a local path (or anything else without a scheme): a file transport, its path withheld
        return new GitRemoteEndpoint(
                name,
                push,
                url.isEmpty() ? "unknown" : "file",
                java.util.Optional.empty(),
                java.util.OptionalInt.empty(),
                !url.isEmpty());
    }

    /** Replaces any userinfo of a URL with {@code ***}; scp-like and local forms carry no secret and pass through. */
    static String redact(String url) {
        return USERINFO.matcher(url).replaceFirst("$1***@");
    }

    /** Redacts the userinfo of every URL inside free text, such as a transport error message. */
    static String redactText(@Nullable String text) {
        return text == null ? "" : ANYWHERE.matcher(text).replaceAll("$1***@");
    }

    private static List<String> redactAll(String[] urls) {
        return Arrays.stream(urls).map(Remotes::redact).toList();
    }
}
