package dev.lomicontrol.tools;

/** Marks a tool that answers operations of every tool ({@code lomi_operation_get}, {@code _cancel}): its result is any OP tool's. */
public record AnyResult() {}
