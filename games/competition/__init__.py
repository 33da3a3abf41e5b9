"""The daily competition's fair play (SPEC section 5, "One person, one result")."""
