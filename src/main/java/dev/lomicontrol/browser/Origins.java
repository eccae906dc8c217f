package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** Web origins as the browser tools compare them: {@code scheme://host[:port]}, lower case, default ports left out. */
public final class Origins {

    private Origins() {}

    /** The http(s) origin of {@code url}; empty for anything else (about:blank, data:, file:, an unparsable address). */
    public static Optional<String> of(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost();
            if (!(scheme.equals("http") || scheme.equals("https")) || host == null || host.isEmpty()) {
                return Optional.empty();
            }
            int port = uri.getPort();
            boolean defaultPort =
                    port == -1 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
            return Optional.of(scheme + "://" + host.toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * {@code url} as a log may show it (security review 2026-12-06, N6): without user info, query
     * and fragment, where tokens travel; a cut is marked {@code ?…} or {@code #…}.
     */
    public static String forLog(String url) {
        int cut = url.length();
        for (char mark : new char[] {'?', '#'}) {
            int at = url.indexOf(mark);
            if (at >= 0 && at < cut) {
                cut = at;
            }
        }
        String head = url.substring(0, cut);
        int scheme = head.indexOf("://");
        if (scheme >= 0) {
            int authority = scheme + 3;
            int slash = head.indexOf('/', authority);
            int at = head.lastIndexOf('@', (slash < 0 ? head.length() : slash) - 1);
            if (at >= authority) {
                head = head.substring(0, authority) + "…@" + head.substring(at + 1);
            }
        }
        return cut < url.length() ? head + url.charAt(cut) + "…" : head;
    }

    /** The origin of an address an agent names (INVALID_ARGUMENT unless it is an http(s) address). */
    public static String required(String url) {
        return of(url).orElseThrow(() ->
                new LomiException(ErrorCode.INVALID_ARGUMENT, url + " is not an http(s) address with a host"));
    }
}
