package dev.lomicontrol.ipc;

/** Helper → broker, plaintext, first frame: who is asking and with which session certificate (base64 DER). */
public record Enrollment(int ipcVersion, String instanceId, String clientLabel, String certificate) {}
