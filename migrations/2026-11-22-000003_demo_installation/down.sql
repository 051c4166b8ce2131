DROP TABLE demo_installation;
