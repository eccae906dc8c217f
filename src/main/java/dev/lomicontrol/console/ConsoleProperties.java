package dev.lomicontrol.console;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Admin console settings ({@code lomi.console.*}).
 *
 * @param adminSocket    listen on {@code admin.sock} and publish {@code admin.token} (off only in tests that need no socket)
 * @param maxConnections console connections served at once; more are closed at once
 */
@ConfigurationProperties("lomi.console")
public record ConsoleProperties(
        @DefaultValue("true") boolean adminSocket,
        @DefaultValue("8") int maxConnections) {}
