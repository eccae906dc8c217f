package dev.lomicontrol.git;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * One configured remote URL as the reference discloses it: the remote's name, whether the URL is
 * fetched from or pushed to, its transport and host/port — never the URL, user, path, query or
 * fragment ({@code locationRedacted} says something was withheld). An unrecognised transport is
 * {@code unknown} with no host.
 */
public record GitRemoteEndpoint(
        String name,
        boolean push,
        String transport,
        Optional<String> host,
        OptionalInt port,
        boolean locationRedacted) {}
