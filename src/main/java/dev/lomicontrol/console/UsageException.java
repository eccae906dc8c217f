package dev.lomicontrol.console;

/** A command line the console cannot run as written (unknown command or option, wrong arity): exit status 2. */
public final class UsageException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
