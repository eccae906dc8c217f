package dev.lomicontrol.projects;

/** One tab of a workspace and its pane tree. */
public record Tab(String id, Pane root) {}
