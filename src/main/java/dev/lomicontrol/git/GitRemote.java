package dev.lomicontrol.git;

import java.util.List;

/** A configured remote; every URL has its userinfo (user, password, token) redacted to {@code ***}. */
public record GitRemote(String name, List<String> fetchUrls, List<String> pushUrls) {
    public GitRemote {
        fetchUrls = List.copyOf(fetchUrls);
        pushUrls = List.copyOf(pushUrls);
    }
}
