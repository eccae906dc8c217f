package dev.lomicontrol.console;

/**
 * Marks a bean whose {@code @Command} methods are console commands. {@link CommandShapes} reads
 * their parameters (positional arguments, flags, options) so the parser can refuse what a method
 * would otherwise silently ignore.
 */
public interface CommandGroup {}
