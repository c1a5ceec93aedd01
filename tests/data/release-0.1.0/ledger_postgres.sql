--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: release_0_1_0; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA release_0_1_0;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: audit_log; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.audit_log (
    rowid bigint NOT NULL,
    id text NOT NULL,
    user_id text NOT NULL,
    thread_id text,
    at text NOT NULL,
    operation text,
    kind text,
    content text,
    evidence text,
    decision text NOT NULL,
    decided_by text NOT NULL,
    reason text,
    fact_id text,
    target_id text,
    proposal text
);


--
-- Name: audit_log_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.audit_log_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: audit_log_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.audit_log_rowid_seq OWNED BY release_0_1_0.audit_log.rowid;


--
-- Name: commit_journal; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.commit_journal (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    id text NOT NULL,
    at text NOT NULL,
    payload text NOT NULL
);


--
-- Name: commit_journal_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.commit_journal_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: commit_journal_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.commit_journal_rowid_seq OWNED BY release_0_1_0.commit_journal.rowid;


--
-- Name: episodes; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.episodes (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    id text NOT NULL,
    occurred_at text NOT NULL,
    kind text NOT NULL,
    topic text NOT NULL,
    content text NOT NULL,
    thread_id text,
    fact_id text
);


--
-- Name: episodes_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.episodes_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: episodes_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.episodes_rowid_seq OWNED BY release_0_1_0.episodes.rowid;


--
-- Name: fact_uses; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.fact_uses (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    fact_id text NOT NULL,
    turn_id text NOT NULL,
    at text NOT NULL
);


--
-- Name: fact_uses_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.fact_uses_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: fact_uses_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.fact_uses_rowid_seq OWNED BY release_0_1_0.fact_uses.rowid;


--
-- Name: facts; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.facts (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    id text NOT NULL,
    status text NOT NULL,
    kind text NOT NULL,
    content text NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    data text NOT NULL
);


--
-- Name: facts_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.facts_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: facts_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.facts_rowid_seq OWNED BY release_0_1_0.facts.rowid;


--
-- Name: session_summaries; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.session_summaries (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    thread_id text NOT NULL,
    started_at text NOT NULL,
    ended_at text NOT NULL,
    topic text NOT NULL,
    decisions text NOT NULL,
    open_items text NOT NULL,
    text text NOT NULL
);


--
-- Name: session_summaries_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.session_summaries_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: session_summaries_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.session_summaries_rowid_seq OWNED BY release_0_1_0.session_summaries.rowid;


--
-- Name: thread_activity; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.thread_activity (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    thread_id text NOT NULL,
    first_at text NOT NULL,
    last_at text NOT NULL
);


--
-- Name: thread_activity_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.thread_activity_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: thread_activity_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.thread_activity_rowid_seq OWNED BY release_0_1_0.thread_activity.rowid;


--
-- Name: user_settings; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.user_settings (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    memory_enabled bigint NOT NULL,
    updated_at text NOT NULL
);


--
-- Name: user_settings_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.user_settings_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: user_settings_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.user_settings_rowid_seq OWNED BY release_0_1_0.user_settings.rowid;


--
-- Name: user_threads; Type: TABLE; Schema: release_0_1_0; Owner: -
--

CREATE TABLE release_0_1_0.user_threads (
    rowid bigint NOT NULL,
    user_id text NOT NULL,
    thread_id text NOT NULL,
    created_at text NOT NULL
);


--
-- Name: user_threads_rowid_seq; Type: SEQUENCE; Schema: release_0_1_0; Owner: -
--

CREATE SEQUENCE release_0_1_0.user_threads_rowid_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: user_threads_rowid_seq; Type: SEQUENCE OWNED BY; Schema: release_0_1_0; Owner: -
--

ALTER SEQUENCE release_0_1_0.user_threads_rowid_seq OWNED BY release_0_1_0.user_threads.rowid;


--
-- Name: audit_log rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.audit_log ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.audit_log_rowid_seq'::regclass);


--
-- Name: commit_journal rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.commit_journal ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.commit_journal_rowid_seq'::regclass);


--
-- Name: episodes rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.episodes ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.episodes_rowid_seq'::regclass);


--
-- Name: fact_uses rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.fact_uses ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.fact_uses_rowid_seq'::regclass);


--
-- Name: facts rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.facts ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.facts_rowid_seq'::regclass);


--
-- Name: session_summaries rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.session_summaries ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.session_summaries_rowid_seq'::regclass);


--
-- Name: thread_activity rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.thread_activity ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.thread_activity_rowid_seq'::regclass);


--
-- Name: user_settings rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.user_settings ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.user_settings_rowid_seq'::regclass);


--
-- Name: user_threads rowid; Type: DEFAULT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.user_threads ALTER COLUMN rowid SET DEFAULT nextval('release_0_1_0.user_threads_rowid_seq'::regclass);


--
-- Data for Name: audit_log; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.audit_log VALUES (1, 'a0', 'alice', 't1', '2025-03-01T09:00:00+00:00', 'add', 'fact', 'content 0', 'evidence 0', 'approved', 'auto', 'ok', 'f_city_old', NULL, '{"operation": "add", "n": 0}');
INSERT INTO release_0_1_0.audit_log VALUES (2, 'a1', 'alice', 't1', '2025-03-02T09:00:00+00:00', 'update', 'fact', 'content 1', 'evidence 1', 'approved', 'auto', 'ok', 'f_city_new', 'f_city_old', '{"operation": "update", "n": 1}');
INSERT INTO release_0_1_0.audit_log VALUES (3, 'a2', 'alice', 't1', '2025-03-03T09:00:00+00:00', 'add', 'fact', 'content 2', 'evidence 2', 'approved', 'auto', 'ok', 'f_diet', NULL, '{"operation": "add", "n": 2}');
INSERT INTO release_0_1_0.audit_log VALUES (4, 'a3', 'bob', 't1', '2025-03-04T09:00:00+00:00', 'add', 'fact', 'content 3', 'evidence 3', 'approved', 'auto', 'ok', 'f_bob', NULL, '{"operation": "add", "n": 3}');


--
-- Data for Name: commit_journal; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.commit_journal VALUES (1, 'alice', 'j1', '2025-03-05T09:00:00+00:00', '{"decision": "add", "fact_id": "f_diet"}');


--
-- Data for Name: episodes; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.episodes VALUES (1, 'alice', 'e1', '2025-03-03T09:00:00+00:00', 'decision', 'moving', 'Decided to move to Oslo.', 't1', 'f_city_new');


--
-- Data for Name: fact_uses; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.fact_uses VALUES (1, 'alice', 'f_city_new', 'turn-1', '2025-03-04T09:00:00+00:00');
INSERT INTO release_0_1_0.fact_uses VALUES (2, 'alice', 'f_diet', 'turn-1', '2025-03-04T09:00:00+00:00');


--
-- Data for Name: facts; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.facts VALUES (1, 'alice', 'f_city_old', 'superseded', 'fact', 'The user lives in Munich.', '2025-03-01T09:00:00+00:00', '2025-03-03T09:00:00+00:00', '{"id":"f_city_old","user_id":"alice","kind":"fact","content":"The user lives in Munich.","topic":"home city","source":{"thread_id":"t1","message_ids":["m1"]},"evidence":"I live in Munich","status":"superseded","confidence":0.8,"importance":0.5,"sensitivity":"common","created_at":"2025-03-01T09:00:00Z","updated_at":"2025-03-03T09:00:00Z","valid_until":null,"review_at":null,"supersedes":null,"superseded_by":"f_city_new","last_used_at":null,"use_count":0,"merged_sources":[],"merged_from":[]}');
INSERT INTO release_0_1_0.facts VALUES (4, 'bob', 'f_bob', 'confirmed', 'fact', 'The user''s backend uses Postgres.', '2025-03-01T09:00:00+00:00', '2025-03-01T09:00:00+00:00', '{"id":"f_bob","user_id":"bob","kind":"fact","content":"The user''s backend uses Postgres.","topic":"database","source":{"thread_id":"tb","message_ids":["mb"]},"evidence":"we use Postgres","status":"confirmed","confidence":0.8,"importance":0.5,"sensitivity":"common","created_at":"2025-03-01T09:00:00Z","updated_at":"2025-03-01T09:00:00Z","valid_until":null,"review_at":null,"supersedes":null,"superseded_by":null,"last_used_at":null,"use_count":0,"merged_sources":[],"merged_from":[]}');
INSERT INTO release_0_1_0.facts VALUES (2, 'alice', 'f_city_new', 'confirmed', 'fact', 'The user lives in Oslo.', '2025-03-03T09:00:00+00:00', '2025-03-03T09:00:00+00:00', '{"id":"f_city_new","user_id":"alice","kind":"fact","content":"The user lives in Oslo.","topic":"home city","source":{"thread_id":"t1","message_ids":["m1"]},"evidence":"I moved to Oslo","status":"confirmed","confidence":0.8,"importance":0.5,"sensitivity":"common","created_at":"2025-03-03T09:00:00Z","updated_at":"2025-03-03T09:00:00Z","valid_until":null,"review_at":null,"supersedes":"f_city_old","superseded_by":null,"last_used_at":"2025-03-04T09:00:00Z","use_count":1,"merged_sources":[],"merged_from":[]}');
INSERT INTO release_0_1_0.facts VALUES (3, 'alice', 'f_diet', 'confirmed', 'preference', 'The user is vegetarian.', '2025-03-02T09:00:00+00:00', '2025-03-02T09:00:00+00:00', '{"id":"f_diet","user_id":"alice","kind":"preference","content":"The user is vegetarian.","topic":"diet","source":{"thread_id":"t1","message_ids":["m1"]},"evidence":"I''m vegetarian","status":"confirmed","confidence":0.8,"importance":0.9,"sensitivity":"common","created_at":"2025-03-02T09:00:00Z","updated_at":"2025-03-02T09:00:00Z","valid_until":null,"review_at":null,"supersedes":null,"superseded_by":null,"last_used_at":"2025-03-04T09:00:00Z","use_count":1,"merged_sources":[],"merged_from":[]}');


--
-- Data for Name: session_summaries; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.session_summaries VALUES (1, 'alice', 't1', '2025-03-01T09:00:00+00:00', '2025-03-01T11:00:00+00:00', 'moving', '["move to Oslo"]', '["find a flat"]', 'Talked about moving to Oslo.');


--
-- Data for Name: thread_activity; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.thread_activity VALUES (1, 'alice', 't1', '2025-03-01T09:00:00+00:00', '2025-03-01T11:00:00+00:00');


--
-- Data for Name: user_settings; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.user_settings VALUES (1, 'bob', 0, '2025-03-01T09:00:00+00:00');


--
-- Data for Name: user_threads; Type: TABLE DATA; Schema: release_0_1_0; Owner: -
--

INSERT INTO release_0_1_0.user_threads VALUES (1, 'alice', 't1', '2025-03-01T09:00:00+00:00');
INSERT INTO release_0_1_0.user_threads VALUES (2, 'bob', 'tb', '2025-03-01T10:00:00+00:00');


--
-- Name: audit_log_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.audit_log_rowid_seq', 4, true);


--
-- Name: commit_journal_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.commit_journal_rowid_seq', 1, true);


--
-- Name: episodes_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.episodes_rowid_seq', 1, true);


--
-- Name: fact_uses_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.fact_uses_rowid_seq', 2, true);


--
-- Name: facts_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.facts_rowid_seq', 4, true);


--
-- Name: session_summaries_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.session_summaries_rowid_seq', 1, true);


--
-- Name: thread_activity_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.thread_activity_rowid_seq', 2, true);


--
-- Name: user_settings_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.user_settings_rowid_seq', 1, true);


--
-- Name: user_threads_rowid_seq; Type: SEQUENCE SET; Schema: release_0_1_0; Owner: -
--

SELECT pg_catalog.setval('release_0_1_0.user_threads_rowid_seq', 2, true);


--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);


--
-- Name: commit_journal commit_journal_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.commit_journal
    ADD CONSTRAINT commit_journal_pkey PRIMARY KEY (user_id, id);


--
-- Name: episodes episodes_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.episodes
    ADD CONSTRAINT episodes_pkey PRIMARY KEY (user_id, id);


--
-- Name: fact_uses fact_uses_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.fact_uses
    ADD CONSTRAINT fact_uses_pkey PRIMARY KEY (user_id, fact_id, turn_id);


--
-- Name: facts facts_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.facts
    ADD CONSTRAINT facts_pkey PRIMARY KEY (user_id, id);


--
-- Name: session_summaries session_summaries_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.session_summaries
    ADD CONSTRAINT session_summaries_pkey PRIMARY KEY (user_id, thread_id);


--
-- Name: thread_activity thread_activity_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.thread_activity
    ADD CONSTRAINT thread_activity_pkey PRIMARY KEY (user_id, thread_id);


--
-- Name: user_settings user_settings_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.user_settings
    ADD CONSTRAINT user_settings_pkey PRIMARY KEY (user_id);


--
-- Name: user_threads user_threads_pkey; Type: CONSTRAINT; Schema: release_0_1_0; Owner: -
--

ALTER TABLE ONLY release_0_1_0.user_threads
    ADD CONSTRAINT user_threads_pkey PRIMARY KEY (user_id, thread_id);


--
-- Name: audit_user; Type: INDEX; Schema: release_0_1_0; Owner: -
--

CREATE INDEX audit_user ON release_0_1_0.audit_log USING btree (user_id, at);


--
-- Name: episodes_user; Type: INDEX; Schema: release_0_1_0; Owner: -
--

CREATE INDEX episodes_user ON release_0_1_0.episodes USING btree (user_id, occurred_at);


--
-- PostgreSQL database dump complete
--


