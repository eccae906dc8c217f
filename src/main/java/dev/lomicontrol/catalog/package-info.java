/**
 * The catalog: every feature's declared tools in their fixed order and toolsets. The only package
 * that knows every feature's contract; the broker, the helper and the console read it. Spring-free.
 */
@NullMarked
package dev.lomicontrol.catalog;

import org.jspecify.annotations.NullMarked;
