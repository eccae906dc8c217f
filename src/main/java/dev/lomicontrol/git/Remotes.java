package dev.lomicontrol.git;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Config;

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

    /** Replaces any userinfo of a URL with {@code ***}; scp-like and local forms carry no secret and pass through. */
    static String redact(String url) {
        return USERINFO.matcher(url).replaceFirst("$1***@");
    }

    /** Redacts the userinfo of every URL inside free text, such as a transport error message. */
    static String redactText(String text) {
        return text == null ? "" : ANYWHERE.matcher(text).replaceAll("$1***@");
    }

    private static List<String> redactAll(String[] urls) {
        return Arrays.stream(urls).map(Remotes::redact).toList();
    }
}
