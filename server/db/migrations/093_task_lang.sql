-- A task's log and its errors follow the language of whoever started it (issue 35), as the server's other
-- messages follow the request's: the starter's language is kept with the execution; scheduled runs (no one
-- started them) write English.
alter table task_executions add column lang varchar(8) not null default 'en';
