/**
 * Hourglass for Spring Boot: {@link dev.hourglass.spring.HourglassTemplate} to enqueue, {@link
 * dev.hourglass.spring.HourglassListener} on bean methods to consume. The auto-configuration lives
 * in {@code dev.hourglass.spring.autoconfigure}; docs/SPRING.md describes the properties.
 */
package dev.hourglass.spring;
