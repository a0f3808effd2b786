"""Where a person is: IANA zones, zones and places named in text, the zone a message is read in."""
