package dev.lomicontrol.discovery;

/**
 * A discovery record (or a file or socket it names) that must not be trusted. The message says
 * exactly which check failed; the helper reports it as phase {@code app_unavailable}.
 */
public final class DiscoveryException extends Exception {

    private static final long serialVersionUID = 1L;

    public DiscoveryException(String message) {
        super(message);
    }

    public DiscoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
